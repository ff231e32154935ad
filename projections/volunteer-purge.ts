import type { Db } from '../src/db/db.js';
import { makeEvent, type Envelope } from '../src/domain/events.js';
import { logger } from '../src/logger.js';
import { purgeBelowWatermark, RETENTION_SPECS, type BatchOptions } from './retention-purge.js';
import { readWatermark } from './retention-watermark.js';
import { VOLUNTEER_RETENTION_TABLE } from './volunteer-events-projection.js';

export const DEFAULT_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

/**
 * What a purge needs of a deployment: the embedded `Brain` satisfies it as it is; the
 * distributed mode publishes to Kafka and deletes from its PostgreSQL (distributed-purge.ts).
 */
export interface PurgeTarget {
  readonly db: Db;
  /** Appends the decision to the log (the embedded brain also projects it before returning). */
  commit(events: readonly Envelope[]): Promise<void>;
  /** Where the retention is configured; null means the default. */
  readonly home: string | null;
}

export interface PurgeOptions extends Pick<BatchOptions, 'batchSize'> {
  ttlDays: number;
  dryRun?: boolean;
  /** The purge's clock (tests); event time decides what is stale, never insertion time. */
  now?: Date;
  /** Rows of the feedback log deleted so far, of the total found stale. */
  onProgress?: (done: number, total: number) => void;
}

export interface PurgeResult {
  /** Stale volunteer events deleted (0 on a dry run). */
  purged: number;
  /** On a dry run: how many would be deleted. */
  wouldPurge?: number;
  /** Events with an event time before this instant are stale. */
  purgedBefore: string;
  ttlDays: number;
}

/** Rows of `table` volunteered before `before` (an ISO instant). */
export const countStale = async (db: Db, table: string, before: string): Promise<number> =>
  Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE volunteered_at < $1::timestamptz`, [before]))[0]!.n);

/**
 * Deletes volunteered events older than the retention (`volunteered_at < now −
 * ttl`). The decision goes into the log first (`volunteer.purged`), so every projection — and any
 * later rebuild — drops the same events; then the rows go in bounded batches, one transaction
 * each, so appends wait for at most one batch. Throws on database errors; see `purgeQuietly`.
 * Rows go only below the watermark the projections have applied: where the log is asynchronous
 * (Kafka), a run right after the decision may delete nothing new, and the next run does.
 */
export async function purgeVolunteerEvents(target: PurgeTarget, options: PurgeOptions): Promise<PurgeResult> {
  const ttlDays = Math.floor(options.ttlDays);
  if (!(ttlDays >= 1)) throw new RangeError(`ttl must be at least 1 day, got ${options.ttlDays}`);
  const now = options.now ?? new Date();
  const cutoff = now.getTime() - ttlDays * DAY_MS;
  const purgedBefore = new Date(cutoff).toISOString();
  const applied = await readWatermark(target.db, VOLUNTEER_RETENTION_TABLE);
  // Rows below an earlier watermark that an interrupted purge left behind go too.
  const effective = new Date(Math.max(cutoff, applied ?? cutoff)).toISOString();
  const stale = await countStale(target.db, 'context_volunteer_events', effective);
  if (options.dryRun) return { purged: 0, wouldPurge: stale, purgedBefore, ttlDays };
  const staleFacts = await countStale(target.db, 'usage_facts', purgedBefore);
  if ((stale > 0 || staleFacts > 0) && (applied === null || cutoff > applied)) {
    await target.commit([makeEvent('volunteer.purged', { purged_before: purgedBefore, ttl_days: ttlDays }, { key: 'purge', at: now })]);
  }
  let done = 0;
  options.onProgress?.(0, stale);
  let purged = 0;
  for (const spec of RETENTION_SPECS) {
    purged += await purgeBelowWatermark(target.db, spec, {
      batchSize: options.batchSize,
      onBatch: (deleted, counted) => {
        if (!counted) return;
        done += deleted;
        options.onProgress?.(done, Math.max(done, stale));
      },
    });
  }
  return { purged, purgedBefore, ttlDays };
}

/**
 * The purge as the CLI and the schedule run it: an error counts as 0 purged for the batch that
 * failed (batches already committed stay counted) and never fails the caller; it is logged.
 */
export async function purgeQuietly(target: PurgeTarget, options: PurgeOptions): Promise<PurgeResult> {
  let committed = 0;
  const onProgress = (done: number, total: number): void => {
    committed = done;
    options.onProgress?.(done, total);
  };
  try {
    return await purgeVolunteerEvents(target, { ...options, onProgress });
  } catch (err) {
    logger.warn({ err, op: 'purge' }, 'volunteer-event purge failed; counted as 0 for the failed batch');
    const now = options.now ?? new Date();
    const ttlDays = Math.floor(options.ttlDays);
    return { purged: committed, purgedBefore: new Date(now.getTime() - ttlDays * DAY_MS).toISOString(), ttlDays };
  }
}
