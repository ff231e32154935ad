import { insertRows, type Db } from '../src/db/db.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';
import { unnestRows } from '../src/db/unnest-rows.js';
import { raise, readWatermark, writeWatermark } from './retention-watermark.js';
import { foldUsageSegment, markedPages, type UsageSegment } from './usage-stats-fold.js';

export const USAGE_RETENTION_TABLE = 'usage_retention';

const FACT_TYPES = ['text', 'text', 'text', 'text', 'timestamptz', 'date', 'text', 'text'];

/**
 * Stores the facts not stored yet (a redelivered event is stored once) with their "used" flags
 * from the marks as they now are, and returns what they add per group: each one volunteered,
 * and used when its flag is set.
 */
const STORE_FRESH_FACTS = (input: string): string => `
WITH input AS (SELECT * FROM ${input} AS t(id, source_id, slug, session_id, volunteered_at, day, match_arm, channel)),
fresh AS (
  INSERT INTO usage_facts (id, source_id, slug, session_id, volunteered_at, day, match_arm, channel, used_approximate, used_attributed)
  SELECT i.id, i.source_id, i.slug, i.session_id, i.volunteered_at, i.day, i.match_arm, i.channel,
         COALESCE(m.live AND m.last_retrieved_at > i.volunteered_at, false),
         COALESCE(s.last_retrieved_at > i.volunteered_at, false)
    FROM input i
    LEFT JOIN usage_page_marks m ON m.source_id = i.source_id AND m.slug = i.slug
    LEFT JOIN usage_session_marks s ON s.source_id = i.source_id AND s.slug = i.slug AND s.session_id = i.session_id
  ON CONFLICT (id) DO NOTHING
  RETURNING day, match_arm, channel, source_id, used_approximate, used_attributed)
SELECT day::text AS day, match_arm, channel, source_id, count(*)::int AS dv,
       count(*) FILTER (WHERE used_approximate)::int AS da, count(*) FILTER (WHERE used_attributed)::int AS ds
  FROM fresh GROUP BY day, match_arm, channel, source_id`;

const STATS_TYPES = ['date', 'text', 'text', 'text', 'int', 'int', 'int'];
const ADD_TO_STATS = (input: string): string => `
INSERT INTO usage_stats (day, match_arm, channel, source_id, volunteered, used_approximate, used_attributed)
SELECT * FROM ${input}
ON CONFLICT (day, match_arm, channel, source_id) DO UPDATE SET
  volunteered = usage_stats.volunteered + EXCLUDED.volunteered,
  used_approximate = usage_stats.used_approximate + EXCLUDED.used_approximate,
  used_attributed = usage_stats.used_attributed + EXCLUDED.used_attributed`;

type Delta = { day: string; match_arm: string; channel: string; source_id: string; dv: number; da: number; ds: number };
const groupKey = (d: Pick<Delta, 'day' | 'match_arm' | 'channel' | 'source_id'>): string =>
  `${d.day}\u0000${d.match_arm}\u0000${d.channel}\u0000${d.source_id}`;

/**
 * Recomputes the "used" flags of the non-frozen facts of the given pages from the marks, and
 * returns the change per group. Approximate = the page is live and was retrieved (any session)
 * after the event; attributed = retrieved in the event's session after the event.
 */
const RECOMPUTE_FLAGS = `
WITH touched AS (SELECT * FROM unnest($1::text[], $2::text[]) AS t(source_id, slug)),
calc AS (
  SELECT f.id, f.day::text AS day, f.match_arm, f.channel, f.source_id,
         f.used_approximate AS old_a, f.used_attributed AS old_s,
         COALESCE(m.live AND m.last_retrieved_at > f.volunteered_at, false) AS new_a,
         COALESCE(s.last_retrieved_at > f.volunteered_at, false) AS new_s
    FROM usage_facts f
    JOIN touched t ON t.source_id = f.source_id AND t.slug = f.slug
    LEFT JOIN usage_page_marks m ON m.source_id = f.source_id AND m.slug = f.slug
    LEFT JOIN usage_session_marks s ON s.source_id = f.source_id AND s.slug = f.slug AND s.session_id = f.session_id
   WHERE $3::timestamptz IS NULL OR f.volunteered_at >= $3::timestamptz
),
changed AS (
  UPDATE usage_facts f SET used_approximate = c.new_a, used_attributed = c.new_s
    FROM calc c
   WHERE f.id = c.id AND (c.old_a <> c.new_a OR c.old_s <> c.new_s)
  RETURNING c.day, c.match_arm, c.channel, c.source_id, c.old_a, c.new_a, c.old_s, c.new_s
)
SELECT day, match_arm, channel, source_id,
       sum(new_a::int - old_a::int)::int AS da, sum(new_s::int - old_s::int)::int AS ds
  FROM changed GROUP BY day, match_arm, channel, source_id`;

async function applySegment(tx: Db, seg: UsageSegment, watermark: number | null): Promise<void> {
  if (seg.liveness.size > 0) {
    const rows = [...seg.liveness.values()].map((p) => [p.source_id, p.slug, p.live]);
    await insertRows(tx, 'usage_page_marks', ['source_id', 'slug', 'live'], rows, 'ON CONFLICT (source_id, slug) DO UPDATE SET live = EXCLUDED.live');
  }
  if (seg.pageRetrievals.size > 0) {
    const rows = [...seg.pageRetrievals.values()].map((r) => [r.source_id, r.slug, false, r.at]);
    await insertRows(tx, 'usage_page_marks', ['source_id', 'slug', 'live', 'last_retrieved_at'], rows,
      'ON CONFLICT (source_id, slug) DO UPDATE SET last_retrieved_at = GREATEST(usage_page_marks.last_retrieved_at, EXCLUDED.last_retrieved_at)');
  }
  if (seg.sessionRetrievals.size > 0) {
    const rows = [...seg.sessionRetrievals.values()].map((r) => [r.source_id, r.slug, r.session_id, r.at]);
    await insertRows(tx, 'usage_session_marks', ['source_id', 'slug', 'session_id', 'last_retrieved_at'], rows,
      'ON CONFLICT (source_id, slug, session_id) DO UPDATE SET last_retrieved_at = GREATEST(usage_session_marks.last_retrieved_at, EXCLUDED.last_retrieved_at)');
  }
  const deltas = new Map<string, Delta>();
  const bump = (g: Omit<Delta, 'dv' | 'da' | 'ds'>, dv: number, da: number, ds: number): void => {
    const k = groupKey(g);
    const d = deltas.get(k) ?? { ...g, dv: 0, da: 0, ds: 0 };
    d.dv += dv;
    d.da += da;
    d.ds += ds;
    deltas.set(k, d);
  };
  // The marks first: fresh facts take their flags from the marks the segment leaves.
  if (seg.facts.length > 0) {
    const rows = seg.facts.map((f) => [f.id, f.source_id, f.slug, f.session_id, f.volunteered_at, f.day, f.match_arm, f.channel]);
    const input = unnestRows(FACT_TYPES, rows);
    for (const c of await tx.query<Delta>(STORE_FRESH_FACTS(input.sql), input.params)) bump(c, c.dv, c.da, c.ds);
  }
  // Stored facts change only where the marks moved (fresh ones there already agree with the marks).
  const { sources, slugs } = markedPages(seg);
  if (sources.length > 0) {
    const since = watermark === null ? null : new Date(watermark).toISOString();
    const changed = await tx.query<Omit<Delta, 'dv'>>(RECOMPUTE_FLAGS, [sources, slugs, since]);
    for (const c of changed) bump(c, 0, c.da, c.ds);
  }
  // In key order: batches of other partitions bump the same counters at the same time (see projectionWork).
  const rows = [...deltas.entries()]
    .filter(([, d]) => d.dv !== 0 || d.da !== 0 || d.ds !== 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, d]) => [d.day, d.match_arm, d.channel, d.source_id, d.dv, d.da, d.ds]);
  if (rows.length === 0) return;
  const input = unnestRows(STATS_TYPES, rows);
  await tx.query(ADD_TO_STATS(input.sql), input.params);
}

/**
 * `usage_stats`: per UTC day × arm × channel × source, volunteered pages and how many were used
 * under both attributions. Counts are maintained incrementally from the projection's own state
 * (facts and retrieval marks), so they depend only on the events applied, in log order: a
 * retrieval arriving after the volunteered event flips the fact's flag and moves the counter;
 * deleting the page clears its approximate flags, re-creating it restores them. A purge freezes
 * facts older than its watermark (their counts stay; they no longer change) and the purge job
 * deletes them, so the daily aggregates outlive the per-event retention.
 */
export const usageStatsProjection: Consumer = {
  name: 'projection.usage_stats',
  topics: ['pages', 'retrievals', 'volunteered'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const initial = await readWatermark(tx, USAGE_RETENTION_TABLE);
    let watermark = initial;
    let start = 0;
    for (let i = 0; i <= events.length; i++) {
      const e = events[i]?.event;
      if (i < events.length && e?.type !== 'volunteer.purged') continue;
      if (i > start) await applySegment(tx, foldUsageSegment(events.slice(start, i), watermark), watermark);
      if (e?.type === 'volunteer.purged') watermark = raise(watermark, e.data.purged_before);
      start = i + 1;
    }
    if (watermark !== null && watermark !== initial) await writeWatermark(tx, USAGE_RETENTION_TABLE, watermark);
  },
};
