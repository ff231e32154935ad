import { cmp } from '../src/code-unit-order.js';
import type { Db } from '../src/db/db.js';
import type { PendingNotice } from '../src/core-memory/core-notices.js';
import { emptyRemoteRevisionState, type RemoteRevisionState } from '../src/core-memory/remote-revisions.js';

/**
 * Core pages with unacknowledged remote revisions, naming the latest one, for
 * every source (callers filter by what the viewer may read). Only live pages: a deleted page
 * cannot be acked, so its notice would never go away.
 */
export async function readPendingCoreNotices(db: Db): Promise<PendingNotice[]> {
  const rows = await db.query<{ source_id: string; slug: string; revision: number }>(
    `SELECT r.source_id, r.slug, max(r.version) AS revision
       FROM core_remote_revisions r
       JOIN pages p ON p.source_id = r.source_id AND p.slug = r.slug AND NOT p.deleted
       LEFT JOIN core_revision_acks a ON a.source_id = r.source_id AND a.slug = r.slug
      WHERE r.version > COALESCE(a.acked_through, 0)
      GROUP BY r.source_id, r.slug`,
  );
  return rows
    .map((r) => ({ source_id: r.source_id, slug: r.slug, revision: Number(r.revision) }))
    .sort((a, b) => cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug));
}

/** The remote revisions of one page and how far they were acked (`core ack`, `core diff`). */
export async function readRemoteRevisionState(db: Db, sourceId: string, slug: string): Promise<RemoteRevisionState> {
  const revisions = await db.query<{ version: number }>(
    'SELECT version FROM core_remote_revisions WHERE source_id = $1 AND slug = $2 ORDER BY version',
    [sourceId, slug],
  );
  const [ack] = await db.query<{ acked_through: number }>('SELECT acked_through FROM core_revision_acks WHERE source_id = $1 AND slug = $2', [
    sourceId,
    slug,
  ]);
  return {
    ...emptyRemoteRevisionState(sourceId, slug),
    remote_revisions: revisions.map((r) => Number(r.version)),
    acked_through: ack ? Number(ack.acked_through) : 0,
  };
}
