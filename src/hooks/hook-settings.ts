/**
 * The harness settings `hooks` structure (Claude Code `settings.json`, Codex `hooks.json`):
 * `{"hooks": {"<Event>": [{"matcher"?: …, "hooks": [{"type": "command", "command": "…"}]}]}}`.
 * Pure edits that touch only brainstream's own entries.
 */
export interface HookCommand {
  type: string;
  command?: string;
  [key: string]: unknown;
}

export interface HookGroup {
  matcher?: string;
  hooks?: HookCommand[];
  [key: string]: unknown;
}

export type Settings = Record<string, unknown> & { hooks?: Record<string, HookGroup[]> };

/** The events brainstream registers, and the hook event each runs. */
const REGISTERED_EVENTS = { UserPromptSubmit: 'user-prompt', SessionStart: 'session-start', PostToolUse: 'post-tool' } as const;

const OUR_COMMAND = /(^|\s)hook (user-prompt|session-start|compact|post-tool)(\s|$)/;

/** A command this tool installed: it runs a brainstream hook event. */
export const isOurCommand = (command: unknown): boolean =>
  typeof command === 'string' && OUR_COMMAND.test(command) && /brainstream|main\.js/.test(command);

/** Settings with every brainstream hook removed; groups and events it empties are removed too. */
export function withoutOurHooks(settings: Settings): Settings {
  if (!settings.hooks || typeof settings.hooks !== 'object') return settings;
  const hooks: Record<string, HookGroup[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    if (!Array.isArray(groups)) {
      hooks[event] = groups;
      continue;
    }
    const kept = groups
      .map((g) => (Array.isArray(g?.hooks) ? { ...g, hooks: g.hooks.filter((h) => !isOurCommand(h?.command)) } : g))
      .filter((g, i) => !(Array.isArray(g?.hooks) && g.hooks.length === 0 && (groups[i].hooks?.length ?? 0) > 0));
    if (kept.length > 0 || groups.length === 0) hooks[event] = kept;
  }
  const { hooks: _old, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

/** Settings with brainstream's hooks registered once (after removing any earlier registration). */
export function withOurHooks(settings: Settings, commandFor: (event: string) => string): Settings {
  const base = withoutOurHooks(settings);
  const hooks: Record<string, HookGroup[]> = { ...(base.hooks ?? {}) };
  for (const [harnessEvent, hookEvent] of Object.entries(REGISTERED_EVENTS)) {
    const groups = Array.isArray(hooks[harnessEvent]) ? [...hooks[harnessEvent]] : [];
    groups.push({ hooks: [{ type: 'command', command: commandFor(hookEvent) }] });
    hooks[harnessEvent] = groups;
  }
  return { ...base, hooks };
}

/** The brainstream commands registered per harness event. */
export function ourCommands(settings: Settings): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) for (const h of g?.hooks ?? []) if (isOurCommand(h?.command)) (out[event] ??= []).push(h.command as string);
  }
  return out;
}
