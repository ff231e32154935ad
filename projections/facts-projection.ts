import { insertRows, type Db } from '../src/db/db.js';
import { normalizeAlias } from '../src/context/strings.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';

const FACT_COLUMNS = [
  'id', 'source_id', 'entity', 'page_row', 'fact', 'normalized', 'kind', 'visibility', 'provenance', 'valid_from', 'valid_until',
  'status', 'created_at',
] as const;

/**
 * `facts`: the fact store behind `remember`, `forget` and `facts list`. A recorded fact is
 * inserted once (keyed by its id); superseding and forgetting only ever withdraw a fact, so
 * applying a batch twice changes nothing.
 */
export const factsProjection: Consumer = {
  name: 'projection.facts',
  topics: ['core'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    // In log order: a fact may be recorded, superseded and forgotten within one batch.
    for (const { event } of events) {
      if (event.type === 'fact.recorded') {
        const d = event.data;
        const row = [d.fact_id, d.source_id, d.entity, d.page_row, d.fact, normalizeAlias(d.fact), d.kind, d.visibility, d.provenance,
          d.valid_from, d.valid_until, 'active', event.at];
        await insertRows(tx, 'facts', FACT_COLUMNS, [row], 'ON CONFLICT (id) DO NOTHING');
        if (d.supersedes !== null) {
          await tx.query(`UPDATE facts SET status = 'superseded', superseded_by = $2 WHERE id = $1 AND status = 'active'`, [d.supersedes, d.fact_id]);
        }
      } else if (event.type === 'fact.forgotten') {
        const d = event.data;
        await tx.query(`UPDATE facts SET status = 'forgotten', reason = $2, valid_until = $3 WHERE id = $1 AND status <> 'forgotten'`, [
          d.fact_id,
          d.reason,
          d.valid_until,
        ]);
      }
    }
  },
};
