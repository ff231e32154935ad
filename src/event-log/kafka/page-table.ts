import { randomUUID } from 'node:crypto';
import type { Admin, EachBatchPayload, Kafka } from 'kafkajs';
import { PageIndex } from '../../context/page-index.js';
import type { Db } from '../../db/db.js';
import { logger } from '../../logger.js';
import type { LoggedEvent } from '../event-log.js';
import { partitionBounds } from './end-offsets.js';
import { kafkaTopicName } from './kafka-topics.js';
import { decodeMessage } from './message-codec.js';
import { SupervisedConsumer } from './supervised-consumer.js';

export interface PageTableOptions {
  kafka: Kafka;
  admin: Admin;
  topicPrefix: string;
  /** Names this member's private consumer group (`<group>.page-table.<random>`). */
  group: string;
}

/**
 * The page index as a global table over the Kafka `pages` topic: every processor reads every
 * partition from the beginning (a consumer group of its own, never committed), so resolution
 * never asks the database. `start` returns once the index holds every page event written before
 * it was called. Later page events wait in a queue and enter the index at `refresh`, between
 * batches of turns, never while one is being decided.
 */
export class KafkaPageTable {
  readonly index = new PageIndex();
  private pending: LoggedEvent[] = [];
  /** Per partition: the next offset to take (a restarted consumer reads from the beginning again). */
  private readonly next = new Map<number, number>();
  private readonly consumer: SupervisedConsumer;
  private readonly groupId: string;
  private readonly topic: string;
  private readonly log;
  private caughtUp: (() => void) | null = null;
  private targets = new Map<number, number>();

  private constructor(private readonly options: PageTableOptions) {
    this.topic = kafkaTopicName(options.topicPrefix, 'pages');
    this.groupId = `${options.group}.page-table.${randomUUID()}`;
    this.log = logger.child({ component: 'page-table', topic: this.topic });
    this.consumer = new SupervisedConsumer({
      log: this.log,
      create: () => options.kafka.consumer({ groupId: this.groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 }),
      // Never committed: a new consumer reads from the beginning again, and `next` skips what was taken.
      run: async (consumer) => {
        await consumer.connect();
        await consumer.subscribe({ topic: this.topic, fromBeginning: true });
        await consumer.run({ autoCommit: false, eachBatch: (p) => this.eachBatch(p) });
      },
    });
  }

  static async start(options: PageTableOptions): Promise<KafkaPageTable> {
    const table = new KafkaPageTable(options);
    await table.bootstrap();
    return table;
  }

  private async bootstrap(): Promise<void> {
    const bounds = await partitionBounds(this.options.admin, this.topic);
    this.targets = new Map(bounds.filter((b) => b.high > b.low).map((b) => [b.partition, b.high]));
    const ready = new Promise<void>((resolve) => (this.caughtUp = resolve));
    await this.consumer.run();
    this.checkCaughtUp();
    await ready;
    await this.refresh();
    this.log.info({ pages: this.index.size }, 'page table loaded');
  }

  /** Applies the page events received since the last call. */
  async refresh(_tx?: Db): Promise<void> {
    const events = this.pending;
    this.pending = [];
    for (const { event } of events) {
      if (event.type === 'page.upserted') this.index.upsert(event.data);
      else if (event.type === 'page.deleted') this.index.remove(event.data.source_id, event.data.slug);
    }
  }

  async stop(): Promise<void> {
    await this.consumer.stop();
  }

  /** Disconnects and removes this member's private group (best effort). */
  async disconnect(): Promise<void> {
    await this.consumer.disconnect();
    await this.options.admin.deleteGroups([this.groupId]).catch(() => {});
  }

  private async eachBatch({ batch }: EachBatchPayload): Promise<void> {
    const from = this.next.get(batch.partition) ?? 0;
    for (const message of batch.messages) {
      const offset = Number(message.offset);
      if (offset < from) continue;
      const decoded = decodeMessage(batch.topic, 'pages', batch.partition, message);
      // Bad messages are dead-lettered by the group's pages projection; the table only skips them.
      if (decoded.ok) this.pending.push(decoded.logged);
      this.next.set(batch.partition, offset + 1);
    }
    this.checkCaughtUp();
  }

  private checkCaughtUp(): void {
    if (!this.caughtUp) return;
    for (const [partition, high] of this.targets) if ((this.next.get(partition) ?? 0) < high) return;
    this.caughtUp();
    this.caughtUp = null;
  }
}
