import { setTimeout as sleep } from 'node:timers/promises';
import type { Batch, EachBatchPayload, Kafka } from 'kafkajs';
import type { Db } from '../../db/db.js';
import type { Topic } from '../../domain/events.js';
import { logger } from '../../logger.js';
import { kafkaTopicName, topicOfKafkaName } from './kafka-topics.js';
import { decodeMessage } from './message-codec.js';
import { SupervisedConsumer } from './supervised-consumer.js';
import { BatchCoalescer } from './batch-coalescer.js';
import { applyPartitionBatch, type BatchOutcome, type BatchWork, type PartitionBatch, type PartitionCursor } from './partition-batch.js';

export interface GroupRunnerOptions {
  kafka: Kafka;
  db: Db;
  group: string;
  topicPrefix: string;
  topics: readonly Topic[];
  /**
   * The consumers, lock and outbox of a batch: per partition (stateful consumers: one
   * transaction per batch), or per stream for stateless consumers, whose batches of one fetch
   * then commit in one transaction.
   */
  work: { perPartition(topic: Topic, partition: number): BatchWork } | { perStream(topic: Topic): BatchWork };
  /** Partitions whose batches run at once in this process (per-partition work; per-stream work takes every batch of a fetch). */
  concurrency: number;
  /** Bytes fetched per partition per request (kafkajs default 1 MiB): bounds a batch. */
  maxBytesPerPartition?: number;
  sessionTimeoutMs: number;
  /** Told of every committed batch (what it applied and dead-lettered), after the commit. */
  onCommitted?: (batch: PartitionBatch, applied: { events: number; dead: number }) => void;
}

const backoff = (attempt: number): number => Math.min(5000, 100 * 2 ** Math.min(attempt - 1, 6));

/**
 * One member of a consumer group: `eachBatch` with auto-commit off, each batch applied in one
 * database transaction that also moves the partition's offset in `kafka_offsets` (the only
 * offset store: nothing is committed to Kafka). The next fetch waits for the commit, which is
 * the backpressure. A failed transaction is retried with backoff until it commits, the member
 * stops, or the partition moves. After every (re)assignment kafkajs starts a partition at its
 * earliest offset; the first batch then seeks to the stored one.
 */
export class KafkaGroupRunner {
  private readonly consumer: SupervisedConsumer;
  private readonly cursors = new Map<string, PartitionCursor>();
  private readonly log;
  private readonly apply: (batch: PartitionBatch, cursor: PartitionCursor) => Promise<BatchOutcome>;
  private readonly workOf: (topic: Topic, partition: number) => BatchWork;

  constructor(private readonly options: GroupRunnerOptions) {
    this.log = logger.child({ component: 'group-runner', group: options.group });
    const { work, db } = options;
    if ('perStream' in work) {
      const coalescer = new BatchCoalescer(db, (topic) => work.perStream(topic));
      this.workOf = (topic) => work.perStream(topic);
      this.apply = (batch, cursor) => coalescer.submit(batch, cursor);
    } else {
      this.workOf = (topic, partition) => work.perPartition(topic, partition);
      this.apply = (batch, cursor) => db.transaction((tx) => applyPartitionBatch(tx, batch, cursor, work.perPartition(batch.topic, batch.key.partition)));
    }
    this.consumer = new SupervisedConsumer({ log: this.log, create: () => this.createConsumer(), run: (c) => this.runConsumer(c) });
  }

  private createConsumer() {
    const { kafka, group, sessionTimeoutMs, maxBytesPerPartition } = this.options;
    const consumer = kafka.consumer({
      groupId: group,
      sessionTimeout: sessionTimeoutMs,
      rebalanceTimeout: Math.max(2 * sessionTimeoutMs, 10_000),
      heartbeatInterval: Math.max(500, Math.min(3000, Math.floor(sessionTimeoutMs / 5))),
      allowAutoTopicCreation: false,
      // A trickle of events waits up to 100 ms to make a batch of ≥ 32 KiB: fewer, larger
      // transactions for at most 100 ms of extra delay.
      minBytes: 32 * 1024,
      maxWaitTimeInMs: 100,
      maxBytesPerPartition: maxBytesPerPartition ?? 1024 * 1024,
    });
    const { GROUP_JOIN, CRASH } = consumer.events;
    consumer.on(GROUP_JOIN, ({ payload }) => {
      // A new generation: kafkajs forgot every position and starts each partition at its earliest offset.
      for (const cursor of this.cursors.values()) cursor.fetchFrom = null;
      this.log.info({ memberId: payload.memberId, assignment: payload.memberAssignment }, 'partitions assigned');
    });
    consumer.on(CRASH, ({ payload }) => this.log.error({ err: payload.error, restart: payload.restart }, 'consumer crashed'));
    return consumer;
  }

  private async runConsumer(consumer: ReturnType<Kafka['consumer']>): Promise<void> {
    const { topicPrefix, topics, concurrency } = this.options;
    // A fresh consumer starts a fresh generation: positions are re-read from PostgreSQL.
    for (const cursor of this.cursors.values()) cursor.fetchFrom = null;
    await consumer.connect();
    await consumer.subscribe({ topics: topics.map((t) => kafkaTopicName(topicPrefix, t)), fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      // Per-stream work commits a whole fetch at once: every batch of it must be in hand together.
      partitionsConsumedConcurrently: 'perStream' in this.options.work ? 64 : concurrency,
      eachBatch: (payload) => this.eachBatch(payload),
    });
  }

  async start(): Promise<void> {
    await this.consumer.run();
  }

  /** Stops fetching and waits for the batches in flight to finish, then leaves the group. */
  async stop(): Promise<void> {
    await this.consumer.stop();
  }

  async disconnect(): Promise<void> {
    await this.consumer.disconnect();
  }

  private cursor(topic: string, partition: number): PartitionCursor {
    const id = `${topic}\u0000${partition}`;
    let cursor = this.cursors.get(id);
    if (!cursor) {
      cursor = { fetchFrom: null, committed: null };
      this.cursors.set(id, cursor);
    }
    return cursor;
  }

  private async eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const topic = topicOfKafkaName(this.options.topicPrefix, batch.topic);
    if (topic === null || batch.messages.length === 0) return;
    const log = this.log.child({ topic: batch.topic, partition: batch.partition });
    const cursor = this.cursor(batch.topic, batch.partition);
    const input = toPartitionBatch(this.options.group, topic, batch);
    const work = this.workOf(topic, batch.partition);
    for (let attempt = 1; ; attempt++) {
      if (!isRunning() || isStale()) return;
      let outcome;
      const started = performance.now();
      try {
        outcome = await this.apply(input, cursor);
      } catch (err) {
        // Whatever the consumers cached in memory during the failed transaction was never committed.
        cursor.committed = null;
        log.warn({ err, attempt, first: input.first, last: input.last }, 'batch failed; retrying');
        await sleep(backoff(attempt));
        await heartbeat();
        continue;
      }
      if (outcome.kind === 'seek') {
        log.info({ from: input.first, to: outcome.offset }, 'seeking to the stored offset');
        cursor.fetchFrom = outcome.offset;
        this.consumer.current.seek({ topic: batch.topic, partition: batch.partition, offset: String(outcome.offset) });
        return;
      }
      cursor.fetchFrom = outcome.next;
      cursor.committed = outcome.current ? outcome.next : null;
      if (outcome.dead > 0) log.warn({ dead: outcome.dead }, 'messages dead-lettered');
      if (outcome.skipped > 0) log.info({ skipped: outcome.skipped, first: input.first, last: input.last }, 'messages already applied (before a move or a restart): skipped');
      log.debug({ first: input.first, last: input.last, events: outcome.events, skipped: outcome.skipped, ms: Math.round(performance.now() - started) }, 'batch committed');
      work.outbox.committed();
      this.options.onCommitted?.(input, { events: outcome.events, dead: outcome.dead });
      resolveOffset(String(input.last));
      await heartbeat();
      return;
    }
  }
}

function toPartitionBatch(group: string, topic: Topic, batch: Batch): PartitionBatch {
  return {
    key: { group, topic: batch.topic, partition: batch.partition },
    topic,
    first: Number(batch.messages[0]!.offset),
    last: Number(batch.messages.at(-1)!.offset),
    messages: batch.messages.map((m) => decodeMessage(batch.topic, topic, batch.partition, m)),
  };
}
