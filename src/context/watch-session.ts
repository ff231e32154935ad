import { clampWindowTurns } from './knobs.js';
import type { PageIndex } from './page-index.js';
import type { DecisionTurn } from './turn.js';
import { volunteer, type VolunteeredPage, type VolunteerOptions } from './volunteer.js';

/**
 * Per-session state of the streaming channel (§7.2, §7.3) as plain JSON, so it can be
 * checkpointed and restored: the rolling window, the slugs already volunteered (a slug at
 * most once per session) and the number of the last accepted turn.
 */
export interface WatchSessionState {
  windowTurns: number;
  window: DecisionTurn[];
  surfaced: string[];
  turnNumber: number;
}

export type WatchStepOptions = Omit<VolunteerOptions, 'excludeSlugs'> & {
  /** Turn number of this turn when the caller owns numbering (serve: from the events); default previous + 1. */
  turn?: number;
};

export interface WatchStep {
  state: WatchSessionState;
  /** The number of the turn just processed (1-based). */
  turn: number;
  volunteered: VolunteeredPage[];
}

/** A fresh session; the window size is clamped to 1..64 (NaN/absent → 4). */
export function createWatchSession(windowTurns?: unknown): WatchSessionState {
  return { windowTurns: clampWindowTurns(windowTurns), window: [], surfaced: [], turnNumber: 0 };
}

const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant', 'tool']);

const isTurn = (t: unknown): t is DecisionTurn =>
  typeof t === 'object' && t !== null && ROLES.has((t as DecisionTurn).role) && typeof (t as DecisionTurn).text === 'string';

/**
 * One accepted turn: push it onto the rolling window, volunteer with the session's already
 * volunteered slugs excluded, and record the new ones. Pure: returns a new state. An error
 * while deciding is swallowed (nothing volunteered) so the stream continues.
 */
export function stepWatchSession(state: WatchSessionState, turn: DecisionTurn, index: PageIndex, opts: WatchStepOptions): WatchStep {
  if (!isTurn(turn)) return { state, turn: state.turnNumber, volunteered: [] };
  const size = clampWindowTurns(state.windowTurns);
  const window = [...state.window, { role: turn.role, text: turn.text }];
  if (window.length > size) window.splice(0, window.length - size);
  const number = typeof opts.turn === 'number' && Number.isFinite(opts.turn) ? opts.turn : state.turnNumber + 1;
  let volunteered: VolunteeredPage[] = [];
  try {
    const { turn: _ignored, ...rest } = opts;
    volunteered = volunteer(window, index, { ...rest, excludeSlugs: state.surfaced });
  } catch {
    volunteered = [];
  }
  let surfaced = state.surfaced;
  for (const p of volunteered) {
    if (!surfaced.includes(p.slug)) surfaced = [...surfaced, p.slug];
  }
  return { state: { windowTurns: size, window, surfaced, turnNumber: number }, turn: number, volunteered };
}
