import { insertRows, type Db } from '../src/db/db.js';
import type { Consumer } from '../src/log/consumer.js';
import type { LoggedEvent } from '../src/log/event-log.js';

export const VOLUNTEER_EVENT_COLUMNS = [
  'id', 'source_id', 'slug', 'confidence', 'match_arm', 'rationale', 'channel', 'session_id', 'turn', 'volunteered_at',
] as const;

/** `context_volunteer_events`: one row per delivered page, keyed by the (deterministic) event id. */
export const volunteerEventsProjection: Consumer = {
  name: 'projection.context_volunteer_events',
  topics: ['volunteered'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const rows: unknown[][] = [];
    for (const { event } of events) {
      if (event.type !== 'page.volunteered') continue;
      const d = event.data;
      rows.push([event.id, d.source_id, d.slug, d.confidence, d.match_arm, d.rationale, d.channel, d.session_id, d.turn, event.at]);
    }
    if (rows.length > 0) await insertRows(tx, 'context_volunteer_events', VOLUNTEER_EVENT_COLUMNS, rows, 'ON CONFLICT (id) DO NOTHING');
  },
};
