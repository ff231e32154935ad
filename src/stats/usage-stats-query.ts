import { cmp } from '../code-unit-order.js';
import type { Db } from '../db/db.js';
import { sumUsageStats } from '../../projections/usage-stats-queries.js';
import { precisionOf } from './volunteer-stats.js';

/** `brainstream stats --by`: the dimensions of the usage statistics, and their columns. */
export const STATS_DIMENSIONS = { day: 'day', arm: 'match_arm', channel: 'channel', source: 'source_id' } as const;
export type StatsDimension = keyof typeof STATS_DIMENSIONS;
export const DEFAULT_STATS_BY: readonly StatsDimension[] = ['day', 'arm', 'channel', 'source'];

export interface UsageStatsQuery {
  by: readonly StatsDimension[];
  /** Inclusive UTC days `YYYY-MM-DD`; null = unbounded. */
  since: string | null;
  until: string | null;
  /** Sources in scope; null = every source. */
  sources: readonly string[] | null;
}

export interface UsageCounts {
  volunteered: number;
  used_approximate: number;
  used_attributed: number;
  precision_approximate: number;
  precision_attributed: number;
}

/** A row: the values of the grouped dimensions (by column name), then the counts. */
export type UsageStatsRow = Record<string, string> & UsageCounts;

export interface UsageStatsResult {
  by: StatsDimension[];
  since: string | null;
  until: string | null;
  rows: UsageStatsRow[];
  total: UsageCounts;
}

const counts = (v: number, a: number, s: number): UsageCounts => ({
  volunteered: v,
  used_approximate: a,
  used_attributed: s,
  precision_approximate: precisionOf(a, v),
  precision_attributed: precisionOf(s, v),
});

/** Sums the usage-statistics projection over the range, grouped by the dimensions asked for (code-unit order). */
export async function queryUsageStats(db: Db, q: UsageStatsQuery): Promise<UsageStatsResult> {
  const cols = q.by.map((d) => STATS_DIMENSIONS[d]);
  const raw = await sumUsageStats(db, cols, q);
  const rows = raw
    .filter((r) => Number(r.v ?? 0) > 0)
    .map((r) => {
      const keys: Record<string, string> = {};
      for (const c of cols) keys[c] = String(r[c]);
      return { ...keys, ...counts(Number(r.v), Number(r.a), Number(r.s)) } as UsageStatsRow;
    })
    .sort((a, b) => {
      for (const c of cols) {
        const d = cmp(a[c]!, b[c]!);
        if (d !== 0) return d;
      }
      return 0;
    });
  const sum = (k: 'volunteered' | 'used_approximate' | 'used_attributed'): number => rows.reduce((s, r) => s + r[k], 0);
  return { by: [...q.by], since: q.since, until: q.until, rows, total: counts(sum('volunteered'), sum('used_approximate'), sum('used_attributed')) };
}
