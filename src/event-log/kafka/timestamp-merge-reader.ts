import { randomUUID } from 'node:crypto';
import type { Admin, Consumer as KafkaConsumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Topic } from '../../domain/events.js';
import type { LoggedEvent, UndecodableEntry } from '../event-log.js';
import { partitionBounds } from './end-offsets.js';
import { kafkaTopicName, topicOfKafkaName } from './kafka-topics.js';
import { decodeMessage } from './message-codec.js';

interface Item {
  timestamp: number;
  rank: number;
  offset: number;
  logged?: LoggedEvent;
  rejected?: UndecodableEntry;
}

interface PartitionBuffer {
  topic: string;
  partition: number;
  /** The first offset held and one past the last to read (the end offset when the source was opened). */
  start: number;
  end: number;
  items: Item[];
  done: boolean;
  paused: boolean;
}

/** Partitions stop being fetched above this many buffered messages, and resume below half. */
const HIGH_WATER = 20_000;

/**
 * Reads topics of a deployment from the beginning up to fixed end offsets, with a consumer group
 * of its own, and hands out events merged across partitions by message time (append time), each
 * partition in its order. Kafka has no order across partitions; this is the nearest to the order
 * in which a processor saw them. Pages sort before turns of the same millisecond.
 */
export class TimestampMergeReader {
  private readonly buffers = new Map<string, PartitionBuffer>();
  private readonly consumer: KafkaConsumer;
  private readonly groupId: string;
  private wake: (() => void) | null = null;
  private failure: Error | null = null;

  constructor(
    kafka: Kafka,
    private readonly admin: Admin,
    private readonly topicPrefix: string,
    private readonly topics: readonly Topic[],
    /** Kafka topic name → partition → end offset, taken when the source was opened. */
    private readonly ends: ReadonlyMap<string, ReadonlyMap<number, number>>,
  ) {
    this.groupId = `${topicPrefix}replay.${randomUUID()}`;
    this.consumer = kafka.consumer({ groupId: this.groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 200 });
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) this.fail(payload.error);
    });
  }

  /** Messages this read will hand out in all (for progress). */
  get total(): number {
    let n = 0;
    for (const b of this.buffers.values()) n += Math.max(0, b.end - b.start);
    return n;
  }

  async start(): Promise<void> {
    for (const topic of this.topics) {
      const name = kafkaTopicName(this.topicPrefix, topic);
      for (const b of await partitionBounds(this.admin, name)) {
        const end = Math.min(this.ends.get(name)?.get(b.partition) ?? 0, b.high);
        this.buffers.set(`${name}\u0000${b.partition}`, { topic: name, partition: b.partition, start: b.low, end, items: [], done: end <= b.low, paused: false });
      }
    }
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics.map((t) => kafkaTopicName(this.topicPrefix, t)), fromBeginning: true });
    await this.consumer.run({ autoCommit: false, partitionsConsumedConcurrently: this.buffers.size || 1, eachBatch: (p) => this.eachBatch(p) });
  }

  /** The next events in merged order (at most `max`), or null when every partition is read. */
  async next(max: number): Promise<{ events: LoggedEvent[]; rejected: UndecodableEntry[] } | null> {
    for (;;) {
      if (this.failure) throw this.failure;
      const waiting = [...this.buffers.values()].some((b) => !b.done && b.items.length === 0);
      if (!waiting) break;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const events: LoggedEvent[] = [];
    const rejected: UndecodableEntry[] = [];
    while (events.length + rejected.length < max) {
      let head: PartitionBuffer | null = null;
      for (const b of this.buffers.values()) {
        if (b.items.length === 0) {
          if (!b.done) return this.handOut(events, rejected);
          continue;
        }
        if (!head || before(b.items[0]!, head.items[0]!)) head = b;
      }
      if (!head) break;
      const item = head.items.shift()!;
      if (item.logged) events.push(item.logged);
      if (item.rejected) rejected.push(item.rejected);
    }
    return events.length + rejected.length === 0 ? null : this.handOut(events, rejected);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
    await this.admin.deleteGroups([this.groupId]).catch(() => {});
  }

  private handOut(events: LoggedEvent[], rejected: UndecodableEntry[]) {
    for (const b of this.buffers.values()) {
      if (b.paused && b.items.length < HIGH_WATER / 2) {
        b.paused = false;
        this.consumer.resume([{ topic: b.topic, partitions: [b.partition] }]);
      }
    }
    return { events, rejected };
  }

  private fail(err: Error): void {
    this.failure = err;
    this.wake?.();
  }

  private async eachBatch({ batch }: EachBatchPayload): Promise<void> {
    const buffer = this.buffers.get(`${batch.topic}\u0000${batch.partition}`);
    const topic = topicOfKafkaName(this.topicPrefix, batch.topic);
    if (!buffer || buffer.done || topic === null) return;
    for (const message of batch.messages) {
      const offset = Number(message.offset);
      if (offset >= buffer.end) break;
      const decoded = decodeMessage(batch.topic, topic, batch.partition, message);
      const item: Item = { timestamp: Number(message.timestamp), rank: topic === 'pages' ? 0 : 1, offset };
      if (decoded.ok) item.logged = decoded.logged;
      else item.rejected = { position: offset, topic: batch.topic, raw: decoded.dead.raw, reason: decoded.dead.reason };
      buffer.items.push(item);
    }
    const last = Number(batch.messages.at(-1)?.offset ?? -1);
    if (last + 1 >= buffer.end) buffer.done = true;
    if (!buffer.done && buffer.items.length >= HIGH_WATER) {
      buffer.paused = true;
      this.consumer.pause([{ topic: batch.topic, partitions: [batch.partition] }]);
    }
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

const before = (a: Item, b: Item): boolean => a.timestamp < b.timestamp || (a.timestamp === b.timestamp && a.rank < b.rank);
