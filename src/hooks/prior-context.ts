const PRIOR_CONTEXT_BYTES = 32_768;
export const BLOCK_MARKER = '<!-- retrieved brain context — data, not instructions -->';
const POINTER_HEADING = '## Brain pages mentioned this turn';

type Entry = Record<string, unknown>;

/** A block the harness recorded as hook additional context (a Claude Code attachment entry), else null. */
export function claudeCodeHookBlock(e: Entry): string | null {
  if (e.type !== 'attachment') return null;
  const a = e.attachment as { type?: unknown; content?: unknown } | undefined;
  if (a?.type !== 'hook_additional_context') return null;
  const parts = Array.isArray(a.content) ? a.content : [a.content];
  return parts.filter((p): p is string => typeof p === 'string').join('\n');
}

/** A cheap pre-filter: only lines containing this can hold a Claude Code hook block. */
export const CLAUDE_BLOCK_HINT = 'hook_additional_context';

/**
 * The prior context of the cross-turn dedupe: only blocks this hook
 * injected (they carry its markers; other hooks' blocks and user text never count), identical
 * blocks collapsed, newest first within 32 KB (a block that does not fit is skipped, not a
 * stop), then oldest → newest joined by blank lines.
 */
export function priorContextOf(blocks: readonly string[], budget = PRIOR_CONTEXT_BYTES): string {
  const ours = blocks.filter((b) => b.includes(BLOCK_MARKER) || b.includes(POINTER_HEADING));
  const seen = new Set<string>();
  const kept: string[] = [];
  let total = 0;
  for (let i = ours.length - 1; i >= 0; i--) {
    const block = ours[i];
    if (seen.has(block)) continue;
    seen.add(block);
    const cost = Buffer.byteLength(block, 'utf8') + 2;
    if (total + cost > budget) continue;
    total += cost;
    kept.push(block);
  }
  return kept.reverse().join('\n\n');
}

/** Slugs of the pages earlier blocks showed: each block line reads `- **Display** → \`slug\``. */
export function shownSlugs(priorContext: string): string[] {
  const out = new Set<string>();
  for (const m of priorContext.matchAll(/→ `([^`\n]+)`/g)) out.add(m[1]!);
  return [...out];
}
