import type { Db } from '../src/db/db.js';
import { readWatermark } from './retention-watermark.js';
import { USAGE_RETENTION_TABLE } from './usage-stats-projection.js';
import { VOLUNTEER_RETENTION_TABLE } from './volunteer-events-projection.js';

/** Rows of one table that a purge watermark makes obsolete: those whose `column` is older. */
export interface PurgedRows {
  table: string;
  column: string;
  /** Counted as "stale volunteer events" in the purge's report. */
  counted: boolean;
}

/** A projection's watermark table and what it purges. */
export interface RetentionSpec {
  watermarkTable: string;
  rows: readonly PurgedRows[];
}

/** The volunteered-event rows the purge deletes: the feedback log and the usage projection's facts. */
export const VOLUNTEER_EVENTS_RETENTION: RetentionSpec = {
  watermarkTable: VOLUNTEER_RETENTION_TABLE,
  rows: [{ table: 'context_volunteer_events', column: 'volunteered_at', counted: true }],
};

export const USAGE_RETENTION: RetentionSpec = {
  watermarkTable: USAGE_RETENTION_TABLE,
  rows: [
    { table: 'usage_facts', column: 'volunteered_at', counted: false },
    // A session retrieval older than the watermark can no longer mark a retained fact as used.
    { table: 'usage_session_marks', column: 'last_retrieved_at', counted: false },
  ],
};

export const RETENTION_SPECS: readonly RetentionSpec[] = [VOLUNTEER_EVENTS_RETENTION, USAGE_RETENTION];

export interface BatchOptions {
  batchSize?: number;
  /** Called after each committed batch with the rows it deleted. */
  onBatch?: (deleted: number, counted: boolean) => void;
}

const DEFAULT_PURGE_BATCH = 1000;

/** Lets queued work (appends, reads) run between two batches, even on the single-connection PGlite. */
const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Deletes, in transactions of at most `batchSize` rows each, the rows older than the watermark the
 * projection has applied. Only an applied watermark justifies a delete: the rows are then
 * already frozen for the projection, so when the delete happens changes nothing it computes.
 * Returns the rows deleted from counted tables.
 */
export async function purgeBelowWatermark(db: Db, spec: RetentionSpec, options: BatchOptions = {}): Promise<number> {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_PURGE_BATCH));
  const watermark = await readWatermark(db, spec.watermarkTable);
  if (watermark === null) return 0;
  const before = new Date(watermark).toISOString();
  let counted = 0;
  for (const rows of spec.rows) {
    for (;;) {
      const [row] = await db.transaction((tx) =>
        tx.query<{ n: number }>(
          `WITH gone AS (
             DELETE FROM ${rows.table}
              WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${rows.table} WHERE ${rows.column} < $1::timestamptz LIMIT $2))
             RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [before, batchSize],
        ),
      );
      const deleted = Number(row!.n);
      if (rows.counted) counted += deleted;
      if (deleted > 0) options.onBatch?.(deleted, rows.counted);
      if (deleted < batchSize) break;
      await yieldToOthers();
    }
  }
  return counted;
}
