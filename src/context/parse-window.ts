import type { Turn, TurnRole } from './turn.js';

/** The role prefix of a line that starts a turn: `user:` / `assistant:`, any case. */
const ROLE_PREFIX = /^(user|assistant)\s*:\s?/iu;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/u;

/**
 * A line that starts a turn: its role and the rest of the line, or null. Also the `watch`
 * line prefix. Only the prefix is matched by a regular expression: matching the rest too made
 * the engine recurse once per character of a long line and overflow the stack on a few
 * megabytes. A rest holding a line terminator is no single line, so it is not a turn start.
 */
export function turnStart(line: string): { role: TurnRole; text: string } | null {
  const m = ROLE_PREFIX.exec(line);
  if (!m) return null;
  const text = line.slice(m[0].length);
  if (LINE_TERMINATOR.test(text)) return null;
  return { role: m[1]!.toLowerCase() as TurnRole, text };
}

const LINE_BREAK = /\r?\n/u;
const BLANK = /^\s*$/u;

/** Parses window text (one-shot stdin, MCP `window`) into turns. */
export function parseWindowText(input: string): Turn[] {
  if (typeof input !== 'string' || BLANK.test(input)) return [];
  const turns: Turn[] = [];
  let open: Turn | null = null;
  for (const line of input.split(LINE_BREAK)) {
    const start = turnStart(line);
    if (start) {
      open = start;
      turns.push(open);
    } else if (open) {
      open.text = open.text === '' ? line : `${open.text}\n${line}`;
    } else if (!BLANK.test(line)) {
      open = { role: 'user', text: line };
      turns.push(open);
    }
  }
  const out: Turn[] = [];
  for (const t of turns) {
    const text = t.text.trim();
    if (text !== '') out.push({ role: t.role, text });
  }
  return out;
}
