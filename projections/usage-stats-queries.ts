import type { Db } from '../src/db/db.js';

/** The grouping columns of `usage_stats`. */
export type UsageStatsColumn = 'day' | 'match_arm' | 'channel' | 'source_id';

export interface UsageStatsRange {
  /** Inclusive UTC days `YYYY-MM-DD`; null = unbounded. */
  since: string | null;
  until: string | null;
  /** Sources in scope; null = every source. */
  sources: readonly string[] | null;
}

/** A summed group: its column values (days as `YYYY-MM-DD`), then `v` volunteered, `a` used (approximate), `s` used (attributed). */
export type UsageStatsSum = Record<string, string | number>;

/** Sums `usage_stats` over the range, grouped by the given columns (none = one total row). */
export async function sumUsageStats(db: Db, cols: readonly UsageStatsColumn[], range: UsageStatsRange): Promise<UsageStatsSum[]> {
  const select = cols.map((c) => (c === 'day' ? 'day::text AS day' : c));
  return db.query<UsageStatsSum>(
    `SELECT ${[...select, 'sum(volunteered)::int AS v', 'sum(used_approximate)::int AS a', 'sum(used_attributed)::int AS s'].join(', ')}
       FROM usage_stats
      WHERE ($1::date IS NULL OR day >= $1::date) AND ($2::date IS NULL OR day <= $2::date)
        AND ($3::text[] IS NULL OR source_id = ANY($3::text[]))
      ${cols.length > 0 ? `GROUP BY ${cols.join(', ')}` : ''}`,
    [range.since, range.until, range.sources],
  );
}
