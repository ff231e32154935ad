import type { Admin, Kafka } from 'kafkajs';
import type { Topic } from '../domain/events.js';
import type { ReplaySource, SourceBatch } from './turn-source.js';
import { partitionBounds } from '../event-log/kafka/end-offsets.js';
import { createKafkaClient, type KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { kafkaTopicName } from '../event-log/kafka/kafka-topics.js';
import { TimestampMergeReader } from '../event-log/kafka/timestamp-merge-reader.js';

const REPLAYED: readonly Topic[] = ['turns', 'pages', 'retrievals'];
const CHUNK = 20_000;

/**
 * The distributed log as a replay source: the end offsets of turns, pages and retrievals are
 * taken when it opens, and every read is a consumer group of its own from the beginning that
 * stops there — a snapshot, however much is published meanwhile. Nothing is committed.
 */
export class KafkaReplaySource implements ReplaySource {
  private constructor(
    private readonly kafka: Kafka,
    private readonly admin: Admin,
    private readonly topicPrefix: string,
    private readonly ends: ReadonlyMap<string, ReadonlyMap<number, number>>,
  ) {}

  static async open(settings: KafkaSettings): Promise<KafkaReplaySource> {
    const kafka = createKafkaClient(settings, { clientId: `brainstream-replay-${process.pid}` });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const ends = new Map<string, Map<number, number>>();
      for (const topic of REPLAYED) {
        const name = kafkaTopicName(settings.topicPrefix, topic);
        ends.set(name, new Map((await partitionBounds(admin, name)).map((b) => [b.partition, b.high])));
      }
      return new KafkaReplaySource(kafka, admin, settings.topicPrefix, ends);
    } catch (err) {
      await admin.disconnect();
      throw err;
    }
  }

  async *read(topics: readonly Topic[]): AsyncIterable<SourceBatch> {
    const reader = new TimestampMergeReader(this.kafka, this.admin, this.topicPrefix, topics, this.ends);
    try {
      await reader.start();
      const total = reader.total;
      let done = 0;
      for (;;) {
        const chunk = await reader.next(CHUNK);
        if (!chunk) return;
        done += chunk.events.length + chunk.rejected.length;
        yield { ...chunk, done: Math.min(done, total), total };
      }
    } finally {
      await reader.stop();
    }
  }

  /** Disconnects the source's admin client (reads disconnect their own consumers). */
  async close(): Promise<void> {
    await this.admin.disconnect();
  }
}
