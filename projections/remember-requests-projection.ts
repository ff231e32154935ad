import type { Db } from '../src/db/db.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';

/**
 * `remember_requests`: the stored response of each `remember` call that carried a request_id,
 * keyed by (bound source, caller identity, request_id) and kept 7 days. Expiry is by event time
 * (never the wall clock), so a rebuild from the log keeps exactly the same rows.
 */
export const rememberRequestsProjection: Consumer = {
  name: 'projection.remember_requests',
  topics: ['core'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    let latest: string | null = null;
    for (const { event } of events) {
      if (event.type !== 'remember.request_completed') continue;
      const d = event.data;
      // A key whose record has expired may be used again; a live record is never overwritten.
      await tx.query(
        `INSERT INTO remember_requests AS r (source_id, identity, request_id, fingerprint, response, stored_at)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz)
         ON CONFLICT (source_id, identity, request_id) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, response = EXCLUDED.response, stored_at = EXCLUDED.stored_at
           WHERE r.stored_at < EXCLUDED.stored_at - interval '7 days'`,
        [d.source_id, d.identity, d.request_id, d.fingerprint, d.response, event.at],
      );
      if (latest === null || event.at > latest) latest = event.at;
    }
    if (latest !== null) await tx.query(`DELETE FROM remember_requests WHERE stored_at < $1::timestamptz - interval '7 days'`, [latest]);
  },
};
