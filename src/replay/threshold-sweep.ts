import { normalizeMaxPages, MAX_PAGES_CAP } from '../context/knobs.js';
import { passesGate } from '../context/confidence.js';
import type { PageIndex } from '../context/page-index.js';
import type { Turn } from '../context/turn.js';
import type { VolunteeredPage } from '../context/volunteer.js';
import { createWatchSession, stepWatchSession, type WatchStepOptions, type WatchSessionState } from '../context/watch-session.js';

/**
 * One session replayed at several gates at once. The rolling window does not depend on the gate,
 * so it is shared; the pages already surfaced do, so each gate keeps its own set.
 */
export interface SweepSession {
  /** The shared window and turn number (its `surfaced` is always empty). */
  base: WatchSessionState;
  surfaced: Set<string>[];
}

export function createSweepSession(windowTurns: unknown, gates: number): SweepSession {
  return { base: createWatchSession(windowTurns), surfaced: Array.from({ length: gates }, () => new Set<string>()) };
}

const NONE: VolunteeredPage[] = [];

export type SweepOptions = Omit<WatchStepOptions, 'minConfidence' | 'maxPages'> & { maxPages?: unknown };

/**
 * A turn with pointers, pages shown before or a fresh decision (a harness prompt): pointers are ungated but skip
 * what each gate already surfaced, so every gate is decided on its own state — exact, and
 * cheap enough for the few turns that come from hooks.
 */
function perGate(session: SweepSession, turn: Turn, index: PageIndex, gates: readonly number[], options: SweepOptions & { maxPages: number }) {
  const { pointers: _p, shown: _s, fresh: _f, ...plain } = options;
  // The shared window only moves; nothing it would volunteer is kept.
  const base = stepWatchSession(session.base, turn, index, { ...plain, minConfidence: 1, maxPages: 1 });
  const volunteered = gates.map((gate, g) => {
    const own = { ...session.base, surfaced: [...session.surfaced[g]!] };
    const step = stepWatchSession(own, turn, index, { ...options, minConfidence: gate });
    for (const slug of step.state.surfaced) session.surfaced[g]!.add(slug);
    return [...step.pointers, ...step.volunteered];
  });
  return { session: { base: { ...base.state, surfaced: [] }, surfaced: session.surfaced }, turn: base.turn, volunteered };
}

/**
 * One turn of `stepWatchSession` at every gate, exactly. Extraction and resolution do not depend
 * on the gate, so the turn is decided once with the gate open (min 0) and the largest cap: that
 * gives the first pages of the volunteer order. A gate's answer is those pages filtered by the gate and
 * by its surfaced set, cut at the cap — exact whenever the filter leaves at least `cap` pages or
 * the open decision returned fewer than the largest cap (then it listed every page). Otherwise the
 * gate is decided again with `stepWatchSession` on its own state.
 */
export function sweepTurn(
  session: SweepSession,
  turn: Turn,
  index: PageIndex,
  gates: readonly number[],
  options: SweepOptions,
): { session: SweepSession; turn: number; volunteered: VolunteeredPage[][] } {
  const cap = normalizeMaxPages(options.maxPages);
  if ((options.pointers ?? 0) > 0 || (options.shown?.length ?? 0) > 0 || options.fresh === true) return perGate(session, turn, index, gates, { ...options, maxPages: cap });
  const open = stepWatchSession(session.base, turn, index, { ...options, minConfidence: 0, maxPages: MAX_PAGES_CAP });
  const next = { base: open.volunteered.length === 0 ? open.state : { ...open.state, surfaced: [] }, surfaced: session.surfaced };
  // Most turns name nothing: then no gate volunteers anything.
  if (open.volunteered.length === 0) return { session: next, turn: open.turn, volunteered: gates.map(() => NONE) };
  const complete = open.volunteered.length < MAX_PAGES_CAP;
  const volunteered = gates.map((gate, g) => {
    const surfaced = session.surfaced[g]!;
    const kept = open.volunteered.filter((p) => passesGate(p.confidence, gate) && !surfaced.has(p.slug));
    if (kept.length >= cap || complete) return kept.slice(0, cap);
    const own = { ...session.base, surfaced: [...surfaced] };
    return stepWatchSession(own, turn, index, { ...options, minConfidence: gate, maxPages: cap }).volunteered;
  });
  volunteered.forEach((pages, g) => {
    for (const p of pages) session.surfaced[g]!.add(p.slug);
  });
  return { session: next, turn: open.turn, volunteered };
}
