import type { Db } from '../src/db/db.js';
import type { StoredReplay } from '../src/core-memory/remember-replay.js';

/** The stored response of a `remember` call, by (bound source, caller identity, request_id). */
export async function readRememberReplay<R>(db: Db, sourceId: string, identity: string, requestId: string): Promise<StoredReplay<R> | null> {
  const [row] = await db.query<{ fingerprint: string; response: string; stored_at: Date | string }>(
    'SELECT fingerprint, response, stored_at FROM remember_requests WHERE source_id = $1 AND identity = $2 AND request_id = $3',
    [sourceId, identity, requestId],
  );
  return row ? { fingerprint: row.fingerprint, response: JSON.parse(row.response) as R, stored_at: new Date(row.stored_at).toISOString() } : null;
}
