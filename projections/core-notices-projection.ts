import { insertRows, type Db } from '../src/db/db.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';

/**
 * Pending remote-edit notices: `core_remote_revisions` (a remote write saved a core page under
 * `notify`) and `core_revision_acks` (the owner acked through a version). Idempotent: revisions
 * are keyed by version, acks only ever move forward.
 */
export const coreNoticesProjection: Consumer = {
  name: 'projection.core_notices',
  topics: ['core'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const revisions: unknown[][] = [];
    const acks = new Map<string, { source_id: string; slug: string; version: number; at: string }>();
    for (const { event } of events) {
      if (event.type === 'core.remote_edit_noticed') {
        const d = event.data;
        revisions.push([d.source_id, d.slug, d.version, event.at]);
      } else if (event.type === 'core.revision_acked') {
        const d = event.data;
        const key = `${d.source_id}\u0000${d.slug}`;
        const prev = acks.get(key);
        if (!prev || prev.version < d.version) acks.set(key, { source_id: d.source_id, slug: d.slug, version: d.version, at: event.at });
      }
    }
    if (revisions.length > 0) {
      await insertRows(tx, 'core_remote_revisions', ['source_id', 'slug', 'version', 'edited_at'], revisions, 'ON CONFLICT DO NOTHING');
    }
    if (acks.size > 0) {
      await insertRows(
        tx,
        'core_revision_acks',
        ['source_id', 'slug', 'acked_through', 'acked_at'],
        [...acks.values()].map((a) => [a.source_id, a.slug, a.version, a.at]),
        `ON CONFLICT (source_id, slug) DO UPDATE SET
           acked_through = GREATEST(core_revision_acks.acked_through, EXCLUDED.acked_through),
           acked_at = CASE WHEN EXCLUDED.acked_through > core_revision_acks.acked_through THEN EXCLUDED.acked_at ELSE core_revision_acks.acked_at END`,
      );
    }
  },
};

