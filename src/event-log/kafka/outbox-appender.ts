import type { Db } from '../../db/db.js';
import { topicOf, type Envelope, type EventType } from '../../domain/events.js';

/**
 * Events a consumer produces (volunteered pages, dead-letter records) staged in the `outbox`
 * table inside the consumer's transaction, so they exist exactly when its writes and offsets
 * do. `OutboxRelay` publishes them; ids are deterministic, so a second publication is harmless.
 */
export class OutboxAppender {
  /** Called after a transaction that staged events has committed (wakes the relay). */
  constructor(private readonly onStaged: () => void = () => {}) {}

  async append(events: readonly Envelope[], tx: Db): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => ({ topic: topicOf(e.type as EventType), key: e.key, payload: e }));
    await tx.query(
      `INSERT INTO outbox (topic, key, payload)
       SELECT topic, key, payload
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (topic text, key text, payload jsonb)) WITH ORDINALITY AS x(topic, key, payload, n)
        ORDER BY n`,
      [rows],
    );
  }

  /** The caller's transaction committed: staged events can be published now. */
  committed(): void {
    this.onStaged();
  }
}

/** Events staged by committed transactions and not yet on their topic. */
export async function pendingOutboxRows(tx: Db): Promise<number> {
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL');
  return Number(row!.n);
}
