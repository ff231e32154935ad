import { roundConfidence } from './confidence.js';
import type { VolunteeredPage } from './volunteer.js';

const NOTHING_VOLUNTEERED = 'Nothing volunteered (no entity cleared the confidence gate).';

type Shown = Pick<VolunteeredPage, 'slug' | 'source_id' | 'display' | 'confidence' | 'arm' | 'rationale' | 'synopsis'>;

/**
 * Human rendering (one-shot and `watch`): `<display> → <slug> (<conf 2dp>, <arm>) — <rationale>`
 * and, for a non-empty synopsis, an indented synopsis line; every line ends with `\n`.
 */
export function renderHuman(pages: readonly Shown[]): string {
  if (pages.length === 0) return `${NOTHING_VOLUNTEERED}\n`;
  let out = '';
  for (const p of pages) {
    out += `${p.display} → ${p.slug} (${p.confidence.toFixed(2)}, ${p.arm}) — ${p.rationale}\n`;
    if (p.synopsis !== '') out += `    ${p.synopsis}\n`;
  }
  return out;
}

/** A page of the one-shot result, keys in the order the CLI contract prints them. */
export interface PageJson {
  slug: string;
  source_id: string;
  display: string;
  confidence: number;
  arm: string;
  rationale: string;
  synopsis: string;
}

export const pageJson = (p: Shown): PageJson => ({
  slug: p.slug,
  source_id: p.source_id,
  display: p.display,
  confidence: roundConfidence(p.confidence),
  arm: p.arm,
  rationale: p.rationale,
  synopsis: p.synopsis,
});

/** The one-shot JSON result `{pages, count, window_turns}`. */
export interface OneShotJson {
  pages: PageJson[];
  count: number;
  window_turns: number;
}

export function oneShotJson(pages: readonly Shown[], windowTurns: number): OneShotJson {
  const shown = pages.map(pageJson);
  return { pages: shown, count: shown.length, window_turns: windowTurns };
}

/** One `watch --json` line object, keys in the order the CLI contract prints them. */
export interface WatchJsonLine extends PageJson {
  turn: number;
  session_id: string;
}

export function watchJsonLine(p: Shown, turn: number, sessionId: string): WatchJsonLine {
  return { turn, ...pageJson(p), session_id: sessionId };
}

/** What `watch` prints for one turn's volunteered pages: JSON lines, or the human lines; nothing when none. */
export function watchOutput(pages: readonly Shown[], turn: number, sessionId: string, json: boolean): string {
  if (pages.length === 0) return '';
  if (!json) return renderHuman(pages);
  let out = '';
  for (const p of pages) out += `${JSON.stringify(watchJsonLine(p, turn, sessionId))}\n`;
  return out;
}
