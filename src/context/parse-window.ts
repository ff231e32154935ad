import type { Turn, TurnRole } from './turn.js';

/** A line that starts a turn (spec §2.1 rule 3); also the `watch` line prefix (§2.2). */
export const TURN_PREFIX = /^(user|assistant)\s*:\s?(.*)$/iu;

const LINE_BREAK = /\r?\n/u;
const BLANK = /^\s*$/u;

/** Parses window text (one-shot stdin, MCP `window`) into turns (spec §2.1). */
export function parseWindowText(input: string): Turn[] {
  if (typeof input !== 'string' || BLANK.test(input)) return [];
  const turns: Turn[] = [];
  let open: Turn | null = null;
  for (const line of input.split(LINE_BREAK)) {
    const m = TURN_PREFIX.exec(line);
    if (m) {
      open = { role: m[1].toLowerCase() as TurnRole, text: m[2] };
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
