import type { Db } from '../db/db.js';
import type { Topic } from '../domain/events.js';
import type { LoggedEvent, UndecodableEntry } from './event-log.js';
import type { EmbeddedEventLog } from './embedded-log.js';
import { recordDeadLetters } from './dead-letters.js';

/**
 * Something that turns a batch of events into rows, inside the caller's transaction. A stream
 * processor also returns what it decided (`Out`); a projection returns nothing.
 */
export interface Consumer<Out = unknown> {
  readonly name: string;
  readonly topics: readonly Topic[];
  apply(tx: Db, events: readonly LoggedEvent[]): Promise<readonly Out[] | void>;
}

export interface CatchUpOptions {
  batchSize?: number;
  /** Stop at this position even if more was appended meanwhile. */
  until?: number;
  onProgress?: (position: number) => void;
}

export async function readCheckpoint(db: Db, consumer: string): Promise<number> {
  const [row] = await db.query<{ position: number }>('SELECT position FROM checkpoints WHERE consumer = $1', [consumer]);
  return row ? Number(row.position) : 1;
}

/**
 * Applies every batch after the consumer's checkpoint. Each batch, its dead letters and the
 * new checkpoint commit in one transaction; the checkpoint is compared-and-set, so a second
 * runner of the same consumer that lost the race applies nothing twice. Returns what the
 * consumer returned for the batches that committed, in log order.
 */
export async function catchUp<Out>(db: Db, log: EmbeddedEventLog, consumer: Consumer<Out>, options: CatchUpOptions = {}): Promise<Out[]> {
  const batchSize = options.batchSize ?? 2000;
  const outputs: Out[] = [];
  for (;;) {
    const progressed = await db.transaction(async (tx) => {
      const from = await lockCheckpoint(tx, consumer.name);
      if (options.until !== undefined && from >= options.until) return null;
      const batch = await log.read(from, { topics: consumer.topics, limit: batchSize }, tx);
      // A short batch is everything this transaction could see: no second look is needed (what
      // is appended after it has a catch-up of its own coming).
      const more = batch.events.length + batch.rejected.length >= batchSize;
      let events = batch.events;
      let rejected: UndecodableEntry[] = batch.rejected;
      let next = batch.next;
      if (options.until !== undefined && next > options.until) {
        events = events.filter((e) => e.position < options.until!);
        rejected = rejected.filter((e) => e.position < options.until!);
        next = options.until;
      }
      if (next === from) return null;
      const out = events.length > 0 ? await consumer.apply(tx, events) : undefined;
      if (rejected.length > 0) await recordDeadLetters(tx, rejected);
      await tx.query('UPDATE checkpoints SET position = $2, updated_at = now() WHERE consumer = $1', [consumer.name, next]);
      return { out: out ?? [], next, more: more && next !== options.until };
    });
    if (!progressed) return outputs;
    outputs.push(...progressed.out);
    options.onProgress?.(progressed.next);
    if (!progressed.more) return outputs;
  }
}

/** Locks the consumer's checkpoint row until the transaction ends (creating it at 1) and returns its position. */
async function lockCheckpoint(tx: Db, consumer: string): Promise<number> {
  const select = 'SELECT position FROM checkpoints WHERE consumer = $1 FOR UPDATE';
  let [row] = await tx.query<{ position: number }>(select, [consumer]);
  if (!row) {
    await tx.query('INSERT INTO checkpoints(consumer, position) VALUES ($1, 1) ON CONFLICT (consumer) DO NOTHING', [consumer]);
    [row] = await tx.query<{ position: number }>(select, [consumer]);
  }
  return Number(row!.position);
}
