import type { Db } from '../../db/db.js';
import { TOPICS, type Topic } from '../../domain/events.js';
import type { Consumer } from '../consumer.js';
import type { LoggedEvent } from '../event-log.js';
import { deadLetterEvent, recordKafkaDeadLetters } from './kafka-dead-letters.js';
import type { DecodedMessage, KafkaDeadLetter } from './message-codec.js';
import type { OutboxAppender } from './outbox-appender.js';
import { advancePartitionOffset, lockPartitionOffset, type PartitionKey } from './partition-offsets.js';

/** What this process knows of one assigned partition. */
export interface PartitionCursor {
  /** Where kafkajs fetches from in the current generation; null until the first batch after an assignment (it then starts at the earliest offset). */
  fetchFrom: number | null;
  /** The position this process last committed. Per-partition state cached in memory is valid only while the stored position still equals it. */
  committed: number | null;
}

export interface PartitionBatch {
  key: PartitionKey;
  /** The stream the topic carries. */
  topic: Topic;
  /** Offsets of the first and last message fetched. */
  first: number;
  last: number;
  messages: readonly DecodedMessage[];
}

export interface BatchWork {
  /** The consumers of the batch's topic; `stale` → stateful ones must reload their state (from the database). */
  consumers(stale: boolean): readonly Consumer[];
  /** Take the projection lock first: for batches whose consumers write rows other partitions also write. */
  serialize: boolean;
  /**
   * Events whose consumers' writes commute across partitions (row-keyed inserts, counter
   * increments in a fixed row order): batches of only such events hold the projection lock
   * shared, so they commit side by side; any other batch still holds it alone.
   */
  commutes?: (event: LoggedEvent) => boolean;
  outbox: OutboxAppender;
}

export type BatchOutcome =
  | {
      kind: 'applied';
      next: number;
      events: number;
      dead: number;
      skipped: number;
      /** The consumers' per-partition state in memory reflects `next` (false: another member moved the partition and nothing here was reloaded). */
      current: boolean;
    }
  /** Nothing applied: fetch the partition from `offset` (another member is ahead, or the stored position was rewound). */
  | { kind: 'seek'; offset: number };

/**
 * Serialises projection batches across partitions and processes (a transaction-scoped advisory
 * lock), per schema: deployments sharing a database in schemas of their own never wait for each other.
 */
const PROJECTION_LOCK = 7243105;
const takeProjectionLock = (tx: Db, shared: boolean): Promise<unknown> =>
  tx.query(`SELECT ${shared ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}($1, hashtext(coalesce(current_schema(), '')))`, [PROJECTION_LOCK]);

/** The lock mode the claimed batches need: shared only when every event they apply commutes with other partitions' batches. */
const sharedLockSuffices = (claims: readonly Claim[], work: (topic: Topic) => BatchWork): boolean =>
  claims.every((c) => {
    const commutes = work(c.batch.topic).commutes;
    return commutes !== undefined && c.events.every(commutes);
  });

/** A batch whose partition offset this transaction holds, split into what is still to apply. */
interface Claim {
  batch: PartitionBatch;
  stored: number;
  /** The stored position is not the one this process last committed: cached state is stale. */
  stale: boolean;
  events: LoggedEvent[];
  dead: KafkaDeadLetter[];
  skipped: number;
}

/**
 * Locks the partition's stored offset until the transaction ends and keeps the messages at or
 * after it (a member that lost the partition and still commits finds them applied), or says
 * where to fetch from instead.
 */
async function claim(tx: Db, batch: PartitionBatch, cursor: PartitionCursor): Promise<Claim | { kind: 'seek'; offset: number }> {
  const { next: stored } = await lockPartitionOffset(tx, batch.key, batch.first);
  // The stored position went back (an operator rewound it): refetch from there.
  if (cursor.fetchFrom !== null && stored < cursor.fetchFrom) return { kind: 'seek', offset: stored };
  // Another member already applied this whole batch and more: skip ahead.
  if (stored > batch.last + 1) return { kind: 'seek', offset: stored };
  const events: LoggedEvent[] = [];
  const dead: KafkaDeadLetter[] = [];
  let skipped = 0;
  for (const m of batch.messages) {
    if ((m.ok ? m.logged.position : m.dead.offset) < stored) skipped++;
    else if (m.ok) events.push(m.logged);
    else dead.push(m.dead);
  }
  return { batch, stored, stale: stored !== cursor.committed, events, dead, skipped };
}

/** Records the claim's dead letters (table + dlq events in the outbox) and moves its offset (compare-and-set). */
async function finish(tx: Db, c: Claim, outbox: OutboxAppender): Promise<BatchOutcome> {
  const touched = c.events.length + c.dead.length > 0;
  if (c.dead.length > 0) {
    await recordKafkaDeadLetters(tx, c.dead);
    await outbox.append(c.dead.map(deadLetterEvent), tx);
  }
  const next = touched ? c.batch.last + 1 : c.stored;
  if (touched) await advancePartitionOffset(tx, c.batch.key, c.stored, next);
  // Stale consumers were started from the database (fresh processors): applying made them current.
  return { kind: 'applied', next, events: c.events.length, dead: c.dead.length, skipped: c.skipped, current: c.events.length > 0 || !c.stale };
}

/**
 * Applies one fetched batch in the caller's transaction: claims it (locked offset, messages not
 * yet applied), applies the consumers, records dead letters, moves the offset. Nothing here talks
 * to Kafka; the caller resolves or seeks after commit.
 */
export async function applyPartitionBatch(tx: Db, batch: PartitionBatch, cursor: PartitionCursor, work: BatchWork): Promise<BatchOutcome> {
  const c = await claim(tx, batch, cursor);
  if ('kind' in c) return c;
  if (work.serialize && c.events.length + c.dead.length > 0) await takeProjectionLock(tx, sharedLockSuffices([c], () => work));
  if (c.events.length > 0) {
    for (const consumer of work.consumers(c.stale)) await consumer.apply(tx, c.events);
  }
  return finish(tx, c, work.outbox);
}

/**
 * Applies the batches of one fetch — several partitions, for stateless consumers — in the
 * caller's transaction: offsets locked in (topic, partition) order so members never deadlock,
 * the projection lock taken once, each consumer applied once per stream with the events of all
 * its partitions (each partition's in order). One commit instead of one per partition.
 */
export async function applyPartitionBatches(
  tx: Db,
  items: readonly { batch: PartitionBatch; cursor: PartitionCursor }[],
  work: (topic: Topic) => BatchWork,
): Promise<BatchOutcome[]> {
  const order = items.map((_, i) => i).sort((a, b) => {
    const x = items[a]!.batch.key;
    const y = items[b]!.batch.key;
    return x.topic < y.topic ? -1 : x.topic > y.topic ? 1 : x.partition - y.partition;
  });
  const claims: (Claim | { kind: 'seek'; offset: number })[] = new Array(items.length);
  for (const i of order) claims[i] = await claim(tx, items[i]!.batch, items[i]!.cursor);
  const live = claims.filter((c): c is Claim => !('kind' in c));
  if (live.some((c) => work(c.batch.topic).serialize && c.events.length + c.dead.length > 0)) {
    await takeProjectionLock(tx, sharedLockSuffices(live, work));
  }
  for (const topic of TOPICS) {
    const mine = live.filter((c) => c.batch.topic === topic && c.events.length > 0);
    if (mine.length === 0) continue;
    const events = mine.flatMap((c) => c.events);
    for (const consumer of work(topic).consumers(mine.some((c) => c.stale))) await consumer.apply(tx, events);
  }
  const outcomes: BatchOutcome[] = new Array(items.length);
  for (const i of order) {
    const c = claims[i]!;
    outcomes[i] = 'kind' in c ? c : await finish(tx, c, work(c.batch.topic).outbox);
  }
  return outcomes;
}
