import type { Db } from '../src/db/db.js';
import { unnestRows } from '../src/db/unnest-rows.js';
import type { MatchArm } from '../src/domain/event-schemas.js';
import {
  emptyDeltas,
  foldLearningEvent,
  learningEventOf,
  learningPageKey,
  learningRowKey,
  type LearningDeltas,
  type LearningEvent,
  type LearningRow,
} from '../src/learning/learning-fold.js';
import { MIN_UNUSED_SESSIONS, type ArmOutcomes, type LearnedSnapshot, type PageOutcomes } from '../src/learning/learning-rule.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';
import { raise, readWatermark, writeWatermark } from './retention-watermark.js';

const LEARNING_RETENTION_TABLE = 'learning_retention';
const ROW_COLUMNS = ['source_id', 'slug', 'session_id', 'first_seen_at', 'volunteered_at', 'match_arm', 'last_read_at'];
const ROW_TYPES = ['text', 'text', 'text', 'timestamptz', 'timestamptz', 'text', 'timestamptz'];

/** Upserts `rows` (in `columns` order, of `types`) in one statement, whatever their number. */
async function upsertRows(tx: Db, table: string, columns: readonly string[], types: readonly string[], rows: readonly unknown[][], conflict: string): Promise<void> {
  const input = unnestRows(types, rows);
  await tx.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM ${input.sql} ${conflict}`, input.params);
}

type StoredRow = Omit<LearningRow, 'first_seen_at' | 'volunteered_at' | 'last_read_at'> & {
  first_seen_at: Date | string;
  volunteered_at: Date | string | null;
  last_read_at: Date | string | null;
};

const ms = (t: Date | string | null): number | null => (t === null ? null : new Date(t).getTime());
const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/** The stored rows of the (page, session) pairs a run of events touches. */
async function loadRows(tx: Db, events: readonly Exclude<LearningEvent, { kind: 'purged' }>[]): Promise<Map<string, LearningRow>> {
  const keys = new Map<string, [string, string, string]>();
  for (const e of events) keys.set(learningRowKey(e.source_id, e.slug, e.session_id), [e.source_id, e.slug, e.session_id]);
  const cols = [[], [], []] as string[][];
  for (const k of keys.values()) k.forEach((v, i) => cols[i]!.push(v));
  const rows = await tx.query<StoredRow>(
    `SELECT l.* FROM learning_sessions l
       JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(source_id, slug, session_id)
         ON l.source_id = k.source_id AND l.slug = k.slug AND l.session_id = k.session_id`,
    cols,
  );
  const out = new Map<string, LearningRow>();
  for (const r of rows) {
    out.set(learningRowKey(r.source_id, r.slug, r.session_id), {
      source_id: r.source_id, slug: r.slug, session_id: r.session_id, match_arm: r.match_arm,
      first_seen_at: ms(r.first_seen_at)!, volunteered_at: ms(r.volunteered_at), last_read_at: ms(r.last_read_at),
    });
  }
  return out;
}

const byKey = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds the counters' changes, in key order (batches of other partitions bump the same counters
 * at the same time, see projectionWork); counters that reach zero go (a rebuild would not have
 * them); a change that adds to a counter never brings it there.
 */
async function applyDeltas(tx: Db, deltas: LearningDeltas): Promise<void> {
  const pageDeltas = [...deltas.pages].filter(([, d]) => d.sessions !== 0 || d.used !== 0).sort(byKey).map(([, d]) => d);
  if (pageDeltas.length > 0) {
    await upsertRows(tx, 'learning_pages', ['source_id', 'slug', 'sessions', 'used'], ['text', 'text', 'int', 'int'], pageDeltas.map((d) => [d.source_id, d.slug, d.sessions, d.used]),
      `ON CONFLICT (source_id, slug) DO UPDATE SET sessions = learning_pages.sessions + EXCLUDED.sessions, used = learning_pages.used + EXCLUDED.used`);
    if (pageDeltas.some((d) => d.sessions <= 0)) await tx.query('DELETE FROM learning_pages WHERE sessions = 0');
  }
  const armDeltas = [...deltas.arms].filter(([, d]) => d.volunteered !== 0 || d.used !== 0).sort(byKey);
  if (armDeltas.length > 0) {
    await upsertRows(tx, 'learning_arms', ['match_arm', 'volunteered', 'used'], ['text', 'int', 'int'], armDeltas.map(([arm, d]) => [arm, d.volunteered, d.used]),
      `ON CONFLICT (match_arm) DO UPDATE SET volunteered = learning_arms.volunteered + EXCLUDED.volunteered, used = learning_arms.used + EXCLUDED.used`);
    if (armDeltas.some(([, d]) => d.volunteered <= 0)) await tx.query('DELETE FROM learning_arms WHERE volunteered = 0');
  }
}

async function applySegment(tx: Db, events: readonly Exclude<LearningEvent, { kind: 'purged' }>[], watermark: number | null): Promise<void> {
  if (events.length === 0) return;
  const rows = await loadRows(tx, events);
  const deltas = emptyDeltas();
  const changed = new Set<string>();
  for (const e of events) {
    const key = foldLearningEvent(rows, deltas, e, watermark);
    if (key !== null) changed.add(key);
  }
  if (changed.size === 0) return;
  const out = [...changed].map((k) => rows.get(k)!).map((r) => [r.source_id, r.slug, r.session_id, iso(r.first_seen_at), iso(r.volunteered_at), r.match_arm, iso(r.last_read_at)]);
  await upsertRows(tx, 'learning_sessions', ROW_COLUMNS, ROW_TYPES, out,
    `ON CONFLICT (source_id, slug, session_id) DO UPDATE SET first_seen_at = EXCLUDED.first_seen_at,
       volunteered_at = EXCLUDED.volunteered_at, match_arm = EXCLUDED.match_arm, last_read_at = EXCLUDED.last_read_at`);
  await applyDeltas(tx, deltas);
}

/** The purge's decision: sessions first seen before the watermark are forgotten, and their counts with them. */
async function forgetBefore(tx: Db, before: number): Promise<void> {
  const at = new Date(before).toISOString();
  const pages = await tx.query<{ source_id: string; slug: string; sessions: number; used: number }>(
    `SELECT source_id, slug, count(*)::int AS sessions, count(last_read_at)::int AS used
       FROM learning_sessions WHERE first_seen_at < $1::timestamptz GROUP BY source_id, slug`,
    [at],
  );
  const arms = await tx.query<{ match_arm: MatchArm; volunteered: number; used: number }>(
    `SELECT match_arm, count(*)::int AS volunteered, count(*) FILTER (WHERE last_read_at > volunteered_at)::int AS used
       FROM learning_sessions WHERE first_seen_at < $1::timestamptz AND volunteered_at IS NOT NULL GROUP BY match_arm`,
    [at],
  );
  if (pages.length === 0) return;
  await tx.query('DELETE FROM learning_sessions WHERE first_seen_at < $1::timestamptz', [at]);
  const deltas = emptyDeltas();
  for (const p of pages) deltas.pages.set(learningPageKey(p.source_id, p.slug), { source_id: p.source_id, slug: p.slug, sessions: -p.sessions, used: -p.used });
  for (const a of arms) deltas.arms.set(a.match_arm, { volunteered: -a.volunteered, used: -a.used });
  await applyDeltas(tx, deltas);
}

/**
 * The learning gate's projection (`retrieval.reflex.learning`): per page and session, when the
 * page was volunteered (and by which arm) and read there; per page and per arm, the counters the
 * decision reads. It follows the volunteered and retrieval streams in log order, so a rebuild
 * from sequence 0 gives the same rows. A `volunteer.purged` event raises its watermark: from that
 * log position on, older events are not folded, and the sessions first seen before it are
 * deleted with their counts in the same transaction — the learned state forgets what the
 * feedback log no longer keeps. Built whether or not the gate is on, so switching it on uses the
 * whole retained history.
 */
export const learningProjection: Consumer = {
  name: 'projection.learning',
  topics: ['volunteered', 'retrievals'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const initial = await readWatermark(tx, LEARNING_RETENTION_TABLE);
    let watermark = initial;
    let run: Exclude<LearningEvent, { kind: 'purged' }>[] = [];
    for (const { event } of events) {
      const e = learningEventOf(event);
      if (e === null) continue;
      if (e.kind !== 'purged') {
        run.push(e);
        continue;
      }
      await applySegment(tx, run, watermark);
      run = [];
      if (watermark !== null && e.before <= watermark) continue;
      watermark = raise(watermark, new Date(e.before).toISOString());
      await forgetBefore(tx, watermark);
    }
    await applySegment(tx, run, watermark);
    if (watermark !== null && watermark !== initial) await writeWatermark(tx, LEARNING_RETENTION_TABLE, watermark);
  },
};

/**
 * The learned state as the projection holds it, for the decision: the arm counters, the
 * sessions of the pages agents read, and the pages that could be lowered (sessions − used ≥
 * MIN_UNUSED_SESSIONS; every other page keeps its confidence, so it need not be read).
 */
export async function readLearnedSnapshot(db: Db): Promise<LearnedSnapshot> {
  const [arms, [read], pages] = [
    await db.query<{ match_arm: MatchArm; volunteered: number; used: number }>('SELECT match_arm, volunteered, used FROM learning_arms'),
    await db.query<{ sessions: number; used: number }>('SELECT COALESCE(sum(sessions), 0)::int AS sessions, COALESCE(sum(used), 0)::int AS used FROM learning_pages WHERE used > 0'),
    await db.query<{ source_id: string; slug: string; sessions: number; used: number }>(
      'SELECT source_id, slug, sessions, used FROM learning_pages WHERE sessions - used >= $1',
      [MIN_UNUSED_SESSIONS],
    ),
  ];
  const byArm = new Map<MatchArm, ArmOutcomes>(arms.map((a) => [a.match_arm, { volunteered: Number(a.volunteered), used: Number(a.used) }]));
  const byPage = new Map<string, PageOutcomes>(pages.map((p) => [learningPageKey(p.source_id, p.slug), { sessions: Number(p.sessions), used: Number(p.used) }]));
  const total: ArmOutcomes = { volunteered: 0, used: 0 };
  for (const a of byArm.values()) {
    total.volunteered += a.volunteered;
    total.used += a.used;
  }
  return {
    page: (sourceId, slug) => byPage.get(learningPageKey(sourceId, slug)),
    arm: (arm) => byArm.get(arm),
    total,
    readPages: { sessions: Number(read!.sessions), used: Number(read!.used) },
  };
}
