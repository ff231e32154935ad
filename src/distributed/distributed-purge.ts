import type { Db } from '../db/db.js';
import type { Envelope } from '../domain/events.js';
import type { EventLog } from '../event-log/event-log.js';
import type { PurgeTarget } from '../../projections/volunteer-purge.js';

/**
 * A distributed deployment as the retention purge's target (the embedded purge, unchanged). The
 * decision, `volunteer.purged` keyed `purge` as in the embedded log, is published to
 * `<prefix>volunteered`; the projections group applies it there, and the volunteer-events and
 * usage-stats projections raise their watermarks in PostgreSQL in that batch's transaction. Rows
 * are deleted from the same PostgreSQL, only below the watermark already applied: a run that has
 * just published its decision usually deletes nothing new, the next run does.
 *
 * Any number of processes may run it at once — every member of a serve group, `brainstream purge
 * --kafka` — because it is idempotent by construction: a watermark only rises (GREATEST), so a
 * second decision for the same or an earlier instant changes nothing, and a row two deletes race
 * for is deleted once.
 */
export function kafkaPurgeTarget(db: Db, log: Pick<EventLog, 'append'>, home: string | null): PurgeTarget {
  return { db, home, commit: (events: readonly Envelope[]) => log.append(events) };
}
