/**
 * Compaction segments of harness sessions (`<home>/integrations/hooks/pressure.json`):
 * whether the save-before-compaction notice already fired in the current segment.
 * Pure transitions over the JSON object; the caller reads and writes the file.
 */

import { sessionIdOf } from '../domain/session-id.js';

export interface PressureSession {
  /** Segment number: 1 at session start, +1 at each compaction. */
  segment: number;
  fired: boolean;
  /** ISO time of the last update. */
  last_seen: string;
}

export interface PressureState {
  version: 1;
  sessions: Record<string, PressureSession>;
}

const IDLE_SESSION_MS = 7 * 24 * 60 * 60 * 1000;

export const emptyPressureState = (): PressureState => ({ version: 1, sessions: {} });

/** The state key of a session id; absent or empty → `anonymous`. */
export function pressureSessionKey(sessionId: string | null | undefined): string {
  const id = typeof sessionId === 'string' ? sessionId.trim() : '';
  return id === '' ? 'anonymous' : sessionIdOf(id)!;
}

/** Reads a stored state leniently: anything malformed becomes an empty state or is dropped. */
export function parsePressureState(json: unknown): PressureState {
  const state = emptyPressureState();
  const sessions = (json as { sessions?: unknown } | null)?.sessions;
  if (sessions === null || typeof sessions !== 'object') return state;
  for (const [key, raw] of Object.entries(sessions as Record<string, unknown>)) {
    const s = raw as Partial<PressureSession> | null;
    if (s && Number.isInteger(s.segment) && typeof s.fired === 'boolean' && typeof s.last_seen === 'string') {
      state.sessions[key] = { segment: s.segment as number, fired: s.fired, last_seen: s.last_seen };
    }
  }
  return state;
}

/** Drops sessions idle for more than 7 days. */
export function pruneIdleSessions(state: PressureState, now: Date): PressureState {
  const sessions = Object.fromEntries(
    Object.entries(state.sessions).filter(([, s]) => {
      const seen = Date.parse(s.last_seen);
      return Number.isFinite(seen) && now.getTime() - seen <= IDLE_SESSION_MS;
    }),
  );
  return { version: 1, sessions };
}

export function hasFiredInSegment(state: PressureState, sessionId: string | null | undefined): boolean {
  return state.sessions[pressureSessionKey(sessionId)]?.fired === true;
}

/** A `compact` hook event, or a session start with `source: "compact"`: a new segment begins. */
export function startNewSegment(state: PressureState, sessionId: string | null | undefined, now: Date): PressureState {
  const key = pressureSessionKey(sessionId);
  const segment = (state.sessions[key]?.segment ?? 0) + 1;
  return { version: 1, sessions: { ...state.sessions, [key]: { segment, fired: false, last_seen: now.toISOString() } } };
}

/** The notice fired in the current segment. */
export function markFired(state: PressureState, sessionId: string | null | undefined, now: Date): PressureState {
  const key = pressureSessionKey(sessionId);
  const segment = state.sessions[key]?.segment ?? 1;
  return { version: 1, sessions: { ...state.sessions, [key]: { segment, fired: true, last_seen: now.toISOString() } } };
}
