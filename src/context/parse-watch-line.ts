import { TURN_PREFIX } from './parse-window.js';
import type { Turn, TurnRole } from './turn.js';

/** One `watch` stdin line → one turn, or null when the line is skipped (spec §2.2). */
export function parseWatchLine(line: string): Turn | null {
  if (typeof line !== 'string') return null;
  const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
  const m = TURN_PREFIX.exec(raw);
  const turn: Turn = m
    ? { role: m[1].toLowerCase() as TurnRole, text: m[2].trim() }
    : { role: 'user', text: raw.trim() };
  return turn.text === '' ? null : turn;
}
