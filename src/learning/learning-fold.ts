import type { MatchArm } from '../domain/event-schemas.js';
import type { AnyEvent } from '../domain/events.js';

/**
 * What the learning gate keeps of one page in one session: when it was first seen there
 * (volunteered or read), when and by which arm it was first volunteered, and the latest read.
 * Times are ms since the epoch, from the events.
 */
export interface LearningRow {
  source_id: string;
  slug: string;
  session_id: string;
  first_seen_at: number;
  volunteered_at: number | null;
  match_arm: MatchArm | null;
  last_read_at: number | null;
}

/** The events the learning gate folds, reduced to what it needs. */
export type LearningEvent =
  | { kind: 'volunteered'; source_id: string; slug: string; session_id: string; arm: MatchArm; at: number }
  | { kind: 'read'; source_id: string; slug: string; session_id: string; at: number }
  | { kind: 'purged'; before: number };

/**
 * The learning event of a log event, or null. Only session outcomes teach: a volunteered page
 * or a read without a session says nothing about whether that session needed the page.
 */
export function learningEventOf(event: AnyEvent): LearningEvent | null {
  switch (event.type) {
    case 'page.volunteered': {
      const d = event.data;
      return d.session_id === null ? null : { kind: 'volunteered', source_id: d.source_id, slug: d.slug, session_id: d.session_id, arm: d.match_arm, at: Date.parse(event.at) };
    }
    case 'page.retrieved': {
      const d = event.data;
      return d.session_id === null ? null : { kind: 'read', source_id: d.source_id, slug: d.slug, session_id: d.session_id, at: Date.parse(event.at) };
    }
    case 'volunteer.purged':
      return { kind: 'purged', before: Date.parse(event.data.purged_before) };
    default:
      return null;
  }
}

export const learningPageKey = (sourceId: string, slug: string): string => `${sourceId}\u0000${slug}`;
export const learningRowKey = (sourceId: string, slug: string, sessionId: string): string => `${sourceId}\u0000${slug}\u0000${sessionId}`;

/** Changes to the per-page and per-arm counters, accumulated over a fold. */
export interface LearningDeltas {
  pages: Map<string, { source_id: string; slug: string; sessions: number; used: number }>;
  arms: Map<MatchArm, { volunteered: number; used: number }>;
}

export const emptyDeltas = (): LearningDeltas => ({ pages: new Map(), arms: new Map() });

/** Read in its session after it was volunteered there: the session attribution of a push. */
const usedAfterVolunteered = (row: LearningRow): boolean =>
  row.volunteered_at !== null && row.last_read_at !== null && row.last_read_at > row.volunteered_at;

/** Adds (sign 1) or removes (sign −1) what one row counts for its page and its arm. */
export function countRow(deltas: LearningDeltas, row: LearningRow, sign: 1 | -1): void {
  const pk = learningPageKey(row.source_id, row.slug);
  const page = deltas.pages.get(pk) ?? { source_id: row.source_id, slug: row.slug, sessions: 0, used: 0 };
  page.sessions += sign;
  if (row.last_read_at !== null) page.used += sign;
  deltas.pages.set(pk, page);
  if (row.volunteered_at === null || row.match_arm === null) return;
  const arm = deltas.arms.get(row.match_arm) ?? { volunteered: 0, used: 0 };
  arm.volunteered += sign;
  if (usedAfterVolunteered(row)) arm.used += sign;
  deltas.arms.set(row.match_arm, arm);
}

/** Where a fold finds and keeps rows: the whole state (replay) or the rows a batch touches (projection). */
export interface LearningRows {
  get(key: string): LearningRow | undefined;
  set(key: string, row: LearningRow): void;
}

/**
 * Folds one volunteered or read event into the rows, counting what changed. Events older than the
 * purge watermark in force are ignored (their outcomes were purged, or will be), so the live
 * projection, a rebuild and a replay agree. Returns the key of the row it changed, or null.
 */
export function foldLearningEvent(rows: LearningRows, deltas: LearningDeltas, e: Exclude<LearningEvent, { kind: 'purged' }>, watermark: number | null): string | null {
  if (watermark !== null && e.at < watermark) return null;
  const key = learningRowKey(e.source_id, e.slug, e.session_id);
  const before = rows.get(key);
  const row: LearningRow = before
    ? { ...before }
    : { source_id: e.source_id, slug: e.slug, session_id: e.session_id, first_seen_at: e.at, volunteered_at: null, match_arm: null, last_read_at: null };
  row.first_seen_at = Math.min(row.first_seen_at, e.at);
  if (e.kind === 'volunteered') {
    // The first push in the session decides its arm and the time its use is counted from.
    if (row.volunteered_at === null || e.at < row.volunteered_at) {
      row.volunteered_at = e.at;
      row.match_arm = e.arm;
    }
  } else if (row.last_read_at === null || e.at > row.last_read_at) {
    row.last_read_at = e.at;
  }
  if (before && sameRow(before, row)) return null;
  if (before) countRow(deltas, before, -1);
  countRow(deltas, row, 1);
  rows.set(key, row);
  return key;
}

const sameRow = (a: LearningRow, b: LearningRow): boolean =>
  a.first_seen_at === b.first_seen_at && a.volunteered_at === b.volunteered_at && a.match_arm === b.match_arm && a.last_read_at === b.last_read_at;
