import { turnStart } from './parse-window.js';
import type { Turn } from './turn.js';

/** One `watch` stdin line → one turn, or null when the line is skipped (blank, or empty after its role prefix). */
export function parseWatchLine(line: string): Turn | null {
  if (typeof line !== 'string') return null;
  const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
  const start = turnStart(raw);
  const turn: Turn = start ? { role: start.role, text: start.text.trim() } : { role: 'user', text: raw.trim() };
  return turn.text === '' ? null : turn;
}
