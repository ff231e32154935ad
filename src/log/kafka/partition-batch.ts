import type { Db } from '../../db/db.js';
import type { Topic } from '../../domain/events.js';
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

/** Serialises projection batches across partitions and processes (a transaction-scoped advisory lock). */
const PROJECTION_LOCK = 7243105;

/**
 * Applies one fetched batch in the caller's transaction: locks the partition's stored offset,
 * applies only the messages at or after it (a member that lost the partition and still commits
 * finds them applied), records dead letters (table + dlq events in the outbox), and moves the
 * offset compare-and-set. Nothing here talks to Kafka; the caller resolves or seeks after commit.
 */
export async function applyPartitionBatch(tx: Db, batch: PartitionBatch, cursor: PartitionCursor, work: BatchWork): Promise<BatchOutcome> {
  const { next: stored } = await lockPartitionOffset(tx, batch.key, batch.first);
  // The stored position went back (an operator rewound it): refetch from there.
  if (cursor.fetchFrom !== null && stored < cursor.fetchFrom) return { kind: 'seek', offset: stored };
  // Another member already applied this whole batch and more: skip ahead.
  if (stored > batch.last + 1) return { kind: 'seek', offset: stored };
  const stale = stored !== cursor.committed;
  const live = batch.messages.filter((m) => (m.ok ? m.logged.position : m.dead.offset) >= stored);
  const skipped = batch.messages.length - live.length;
  if (live.length === 0) return { kind: 'applied', next: stored, events: 0, dead: 0, skipped, current: !stale };
  const events: LoggedEvent[] = [];
  const dead: KafkaDeadLetter[] = [];
  for (const m of live) {
    if (m.ok) events.push(m.logged);
    else dead.push(m.dead);
  }
  if (work.serialize) await tx.query('SELECT pg_advisory_xact_lock($1)', [PROJECTION_LOCK]);
  // Stale consumers start from the database (fresh processors): applying makes them current.
  if (events.length > 0) {
    for (const consumer of work.consumers(stale)) await consumer.apply(tx, events);
  }
  if (dead.length > 0) {
    await recordKafkaDeadLetters(tx, dead);
    await work.outbox.append(dead.map(deadLetterEvent), tx);
  }
  const next = batch.last + 1;
  await advancePartitionOffset(tx, batch.key, stored, next);
  return { kind: 'applied', next, events: events.length, dead: dead.length, skipped, current: events.length > 0 || !stale };
}
