import { clampWindowTurns } from './knobs.js';
import type { PageIndex } from './page-index.js';
import type { Turn } from './turn.js';
import { extendSurfaced, surfacedSet } from './surfaced-slugs.js';
import { resolvePointers, volunteer, type VolunteeredPage, type VolunteerOptions } from './volunteer.js';

/**
 * Per-session state of the streaming channel (`watch`, serve, Kafka) as plain JSON, so it can be
 * checkpointed and restored: the rolling window, the slugs already volunteered (a slug at
 * most once per session) and the number of the last accepted turn.
 */
export interface WatchSessionState {
  windowTurns: number;
  window: Turn[];
  surfaced: string[];
  turnNumber: number;
}

export type WatchStepOptions = Omit<VolunteerOptions, 'excludeSlugs'> & {
  /** Turn number of this turn when the caller owns numbering (serve: from the events); default previous + 1. */
  turn?: number;
  /** Ungated pointers to pages this turn itself names, at most this many, before the gated decision (default 0: none). */
  pointers?: number;
  /** Slugs the reader was already shown outside this session's turns: never surfaced again. */
  shown?: readonly string[];
  /**
   * The turn was decided without the session's earlier turns (the cold path answers before the
   * log is open): it is decided on itself and `shown` alone, then the session carries on with
   * its window and surfaced pages plus this turn and what it surfaced.
   */
  fresh?: boolean;
};

export interface WatchStep {
  state: WatchSessionState;
  /** The number of the turn just processed (1-based). */
  turn: number;
  volunteered: VolunteeredPage[];
  /** Pointers to the pages the turn names (only when asked for), already excluded from `volunteered`. */
  pointers: VolunteeredPage[];
}

/** A fresh session; the window size is clamped to 1..64 (NaN/absent → 4). */
export function createWatchSession(windowTurns?: unknown): WatchSessionState {
  return { windowTurns: clampWindowTurns(windowTurns), window: [], surfaced: [], turnNumber: 0 };
}

const isTurn = (t: unknown): t is Turn =>
  typeof t === 'object' && t !== null &&
  ((t as Turn).role === 'user' || (t as Turn).role === 'assistant' || (t as Turn).role === 'tool') && typeof (t as Turn).text === 'string';

/**
 * One accepted turn: push it onto the rolling window, volunteer with the session's already
 * volunteered slugs excluded, and record the new ones. Pure: returns a new state. An error
 * while deciding is swallowed (nothing volunteered) so the stream continues.
 */
export function stepWatchSession(state: WatchSessionState, turn: Turn, index: PageIndex, opts: WatchStepOptions): WatchStep {
  if (!isTurn(turn)) return { state, turn: state.turnNumber, volunteered: [], pointers: [] };
  const size = clampWindowTurns(state.windowTurns);
  const window = [...state.window, { role: turn.role, text: turn.text }];
  if (window.length > size) window.splice(0, window.length - size);
  const number = typeof opts.turn === 'number' && Number.isFinite(opts.turn) ? opts.turn : state.turnNumber + 1;
  // The session's pages plus those the reader was shown elsewhere, each once, in order.
  const shown = opts.shown ?? [];
  const surfacedBefore = extendSurfaced(state.surfaced, shown);
  // What the decision sees: the session so far, or (fresh) this turn and `shown` only.
  const seenWindow = opts.fresh === true ? window.slice(-1) : window;
  const seen = opts.fresh === true ? new Set(shown) : surfacedSet(surfacedBefore);
  let volunteered: VolunteeredPage[] = [];
  let pointers: VolunteeredPage[] = [];
  try {
    const { turn: _ignored, pointers: maxPointers, shown: _shown, fresh: _fresh, ...rest } = opts;
    if (maxPointers !== undefined && maxPointers > 0) {
      pointers = resolvePointers([{ role: turn.role, text: turn.text }], index, { ...rest, excludeSlugs: seen, maxPointers });
    }
    const pointed = pointers.map((p) => p.slug);
    const excluded = pointed.length === 0 ? seen : { has: (slug: string) => seen.has(slug) || pointed.includes(slug) };
    volunteered = volunteer(seenWindow, index, { ...rest, excludeSlugs: excluded });
  } catch {
    volunteered = [];
    pointers = [];
  }
  const surfaced = extendSurfaced(surfacedBefore, [...pointers, ...volunteered].map((p) => p.slug));
  return { state: { windowTurns: size, window, surfaced, turnNumber: number }, turn: number, volunteered, pointers };
}
