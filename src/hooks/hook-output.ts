const MAX_HOOK_OUTPUT_CHARS = 10_000;

/** The harness JSON for `additionalContext` on UserPromptSubmit (Claude Code and Codex alike). */
export const userPromptJson = (text: string): string =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } });

/** The harness JSON for `additionalContext` after a tool ran (PostToolUse: Claude Code and Codex alike). */
export const postToolJson = (text: string): string =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } });

/**
 * `additionalContext` within 10 000 characters: the pressure notice first and never trimmed,
 * then the block with trailing lines dropped until it fits. Null when nothing is left.
 */
export function fitAdditionalContext(notice: string | null, block: string, cap = MAX_HOOK_OUTPUT_CHARS): { text: string | null; trimmed: boolean; blockDropped: boolean } {
  const head = notice ?? '';
  const join = (b: string): string => (head !== '' && b !== '' ? `${head}\n\n${b}` : head + b);
  let lines = block === '' ? [] : block.split('\n');
  let trimmed = false;
  while (lines.length > 0 && join(lines.join('\n').trimEnd()).length > cap) {
    lines = lines.slice(0, -1);
    trimmed = true;
  }
  const kept = lines.join('\n').trimEnd();
  const text = join(kept);
  return { text: text === '' || text.length > cap ? null : text, trimmed, blockDropped: block !== '' && kept === '' };
}
