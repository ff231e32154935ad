/**
 * The `brainstream [globals] hook <event> [--harness H]` command line, parsed without loading
 * the full CLI: the hook runs on every prompt and its start-up time is the user's wait.
 */
export const HOOK_EVENTS = ['user-prompt', 'session-start', 'compact', 'post-tool'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const HARNESSES = ['claude-code', 'codex', 'opencode'] as const;
export type Harness = (typeof HARNESSES)[number];

export interface HookArgs {
  home: string | undefined;
  /** null when the event is missing or unknown (a usage error). */
  event: HookEvent | null;
  rawEvent: string | undefined;
  harness: Harness;
}

const GLOBAL_WITH_VALUE = new Set(['--home', '--as', '--grant']);

/** `--harness` other than the three known ones → `claude-code` (it is the request's channel). */
export const harnessOf = (value: string | undefined): Harness =>
  (HARNESSES as readonly string[]).includes(value ?? '') ? (value as Harness) : 'claude-code';

/**
 * The hook invocation in `argv` (after `node main.js`), or null when this is not one the fast
 * path handles (another command, or a request for help).
 */
export function parseHookArgs(argv: readonly string[]): HookArgs | null {
  let home: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--debug') continue;
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!GLOBAL_WITH_VALUE.has(name)) break;
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (name === '--home') home = value;
  }
  if (argv[i] !== 'hook') return null;
  const rest = argv.slice(i + 1);
  if (rest.some((a) => a === '--help' || a === '-h' || a === 'help')) return null;
  let rawEvent: string | undefined;
  let harness: string | undefined;
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j];
    if (a === '--harness') harness = rest[++j];
    else if (a.startsWith('--harness=')) harness = a.slice('--harness='.length);
    else if (a === '--debug') continue;
    else if (a.startsWith('-') || rawEvent !== undefined) return { home, event: null, rawEvent: a, harness: harnessOf(harness) };
    else rawEvent = a;
  }
  const event = (HOOK_EVENTS as readonly string[]).includes(rawEvent ?? '') ? (rawEvent as HookEvent) : null;
  return { home, event, rawEvent, harness: harnessOf(harness) };
}
