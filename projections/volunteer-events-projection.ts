import type { Db } from '../src/db/db.js';
import { unnestRows } from '../src/db/unnest-rows.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';
import { raise, readWatermark, writeWatermark } from './retention-watermark.js';

const VOLUNTEER_EVENT_COLUMNS = [
  'id', 'source_id', 'slug', 'confidence', 'match_arm', 'rationale', 'channel', 'session_id', 'turn', 'volunteered_at',
] as const;
const VOLUNTEER_EVENT_TYPES = ['text', 'text', 'text', 'float8', 'text', 'text', 'text', 'text', 'int', 'timestamptz'];

export const VOLUNTEER_RETENTION_TABLE = 'volunteer_events_retention';

/**
 * `context_volunteer_events`: one row per delivered page, keyed by the (deterministic) event id.
 * A `volunteer.purged` event raises the watermark: from that log position on, volunteered events
 * older than it are not projected (the purge job deletes the rows already there, in batches).
 * Decisions follow log order, so a rebuild from sequence 0 keeps exactly the live rows.
 */
export const volunteerEventsProjection: Consumer = {
  name: 'projection.context_volunteer_events',
  topics: ['volunteered'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const before = await readWatermark(tx, VOLUNTEER_RETENTION_TABLE);
    let watermark = before;
    const rows: unknown[][] = [];
    for (const { event } of events) {
      if (event.type === 'volunteer.purged') {
        watermark = raise(watermark, event.data.purged_before);
        continue;
      }
      if (event.type !== 'page.volunteered') continue;
      if (watermark !== null && Date.parse(event.at) < watermark) continue;
      const d = event.data;
      rows.push([event.id, d.source_id, d.slug, d.confidence, d.match_arm, d.rationale, d.channel, d.session_id, d.turn, event.at]);
    }
    if (rows.length > 0) {
      const input = unnestRows(VOLUNTEER_EVENT_TYPES, rows);
      await tx.query(`INSERT INTO context_volunteer_events (${VOLUNTEER_EVENT_COLUMNS.join(', ')}) SELECT * FROM ${input.sql} ON CONFLICT (id) DO NOTHING`, input.params);
    }
    if (watermark !== null && watermark !== before) await writeWatermark(tx, VOLUNTEER_RETENTION_TABLE, watermark);
  },
};
