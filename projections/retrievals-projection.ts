import { insertRows, type Db } from '../src/db/db.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';

/**
 * Every retrieval with its session (`page_retrievals`), and `pages.last_retrieved_at` = the
 * latest retrieval by event time (no throttle: every read counts).
 */
export const retrievalsProjection: Consumer = {
  name: 'projection.retrievals',
  topics: ['retrievals'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const rows: unknown[][] = [];
    const latest = new Map<string, { source_id: string; slug: string; at: string }>();
    for (const { event } of events) {
      if (event.type !== 'page.retrieved') continue;
      const d = event.data;
      rows.push([event.id, d.source_id, d.slug, d.session_id, event.at]);
      const key = `${d.source_id}\u0000${d.slug}`;
      const prev = latest.get(key);
      if (!prev || prev.at < event.at) latest.set(key, { source_id: d.source_id, slug: d.slug, at: event.at });
    }
    if (rows.length === 0) return;
    await insertRows(tx, 'page_retrievals', ['id', 'source_id', 'slug', 'session_id', 'retrieved_at'], rows, 'ON CONFLICT (id) DO NOTHING');
    for (const { source_id, slug, at } of latest.values()) {
      await tx.query(
        `UPDATE pages SET last_retrieved_at = GREATEST(COALESCE(last_retrieved_at, $3::timestamptz), $3::timestamptz)
         WHERE source_id = $1 AND slug = $2`,
        [source_id, slug, at],
      );
    }
  },
};
