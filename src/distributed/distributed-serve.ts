import type { Admin, Producer } from 'kafkajs';
import type { Db } from '../db/db.js';
import { logger } from '../logger.js';
import { createKafkaClient, type KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { createIdempotentProducer, KafkaEventLog } from '../event-log/kafka/kafka-event-log.js';
import { ensureTopics } from '../event-log/kafka/kafka-topics.js';
import { KafkaGroupRunner } from '../event-log/kafka/group-runner.js';
import { OutboxAppender } from '../event-log/kafka/outbox-appender.js';
import { OutboxRelay } from '../event-log/kafka/outbox-relay.js';
import { KafkaPageTable } from '../event-log/kafka/page-table.js';
import { KafkaSockets } from '../event-log/kafka/kafka-sockets.js';
import { startPurgeSchedule, type PurgeSchedule, type PurgeScheduleOptions } from '../../projections/purge-schedule.js';
import { openDistributedDb } from './distributed-db.js';
import { measureGroupLag } from './group-lag.js';
import { ServeMetrics } from './serve-metrics.js';
import { kafkaPurgeTarget } from './distributed-purge.js';
import { distributedTopologySettings } from './distributed-settings.js';
import { PROCESSOR_TOPICS, PROJECTION_TOPICS, processorWork, projectionWork, projectionsGroup } from './serve-work.js';

export interface DistributedServeOptions extends KafkaSettings {
  databaseUrl: string;
  /** The deployment's PostgreSQL schema (default `brainstream`). */
  schema?: string;
  group: string;
  /** Where the configuration (window, lexical arms, gazetteer) is read from. */
  home: string;
  /** Partitions processed at once by this member (default 4). */
  concurrency?: number;
  /** Group session timeout: how soon a dead member's partitions move (default 30 s; the broker allows ≥ 6 s). */
  sessionTimeoutMs?: number;
  /** The retention purge's schedule (default: a minute after start, then daily, retention from the config in `home`). */
  purge?: PurgeScheduleOptions;
  /** Serve Prometheus metrics on 127.0.0.1:<port>/metrics (0: any free port); off when undefined. */
  metricsPort?: number;
}

/** Resources opened so far, closed in reverse order when a start fails half-way. */
type Closer = () => Promise<unknown>;

/**
 * `brainstream serve --kafka`: one member of a serve group (its processors and projections
 * consumer groups, docs/operations.md). Start order: the
 * database (migrated), the topics, the producer, the page table (caught up with the pages
 * topic), the outbox relay, the group members (processors, projections), then the daily
 * retention purge. `stop()` is the documented shutdown.
 */
export class DistributedServe {
  private stopping: Promise<void> | null = null;

  private constructor(
    private readonly db: Db,
    private readonly admin: Admin,
    private readonly producer: Producer,
    private readonly pages: KafkaPageTable,
    private readonly relay: OutboxRelay,
    private readonly runners: readonly KafkaGroupRunner[],
    private readonly sockets: KafkaSockets,
    private readonly purge: PurgeSchedule,
    private readonly metrics: { port: number; close(): Promise<void> } | null,
  ) {}

  /** The port of the /metrics endpoint, or null when metrics are off. */
  get metricsPort(): number | null {
    return this.metrics?.port ?? null;
  }

  static async start(options: DistributedServeOptions): Promise<DistributedServe> {
    const closers: Closer[] = [];
    const concurrency = options.concurrency ?? 4;
    try {
      // One connection per batch in flight (processors, projections), one for the relay, one for the purge, one spare.
      const db = await openDistributedDb(options.databaseUrl, { pool: concurrency + 4, applicationName: `brainstream-serve ${process.pid} ${options.group}`, schema: options.schema });
      closers.push(() => db.close());
      const sockets = new KafkaSockets();
      closers.push(async () => sockets.destroyLeftovers());
      const kafka = createKafkaClient(options, { clientId: `brainstream-serve-${process.pid}`, patience: 'long', sockets });
      const admin = kafka.admin();
      await admin.connect();
      closers.push(() => admin.disconnect());
      await ensureTopics(admin, options.topicPrefix);
      const producer = createIdempotentProducer(kafka);
      await producer.connect();
      closers.push(() => producer.disconnect());
      const pages = await KafkaPageTable.start({ kafka, admin, topicPrefix: options.topicPrefix, group: options.group });
      closers.push(() => pages.disconnect());
      const relay = new OutboxRelay(db, new KafkaEventLog(producer, options.topicPrefix), options.topicPrefix);
      relay.start();
      closers.push(() => relay.stop());
      const outbox = new OutboxAppender(() => relay.kick());
      const metrics = options.metricsPort === undefined ? null : new ServeMetrics(() => measureGroupLag(db, admin, options.topicPrefix, options.group));
      const common = { kafka, db, topicPrefix: options.topicPrefix, sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000 };
      const processors = new KafkaGroupRunner({
        ...common,
        group: options.group,
        topics: PROCESSOR_TOPICS,
        work: {
          perPartition: processorWork({
            group: options.group,
            pages,
            outbox,
            settings: () => distributedTopologySettings(options.home),
            onDecided: metrics ? (d) => metrics.decided(d) : undefined,
          }),
        },
        onCommitted: metrics ? (batch, applied) => metrics.committed({ group: 'processors', topic: batch.topic, batch, ...applied }) : undefined,
        concurrency,
        // ≤ ~1,000 turns a batch: a batch is decided synchronously, and a shorter stall keeps this
        // process's other transactions (which may hold the projection lock) moving.
        maxBytesPerPartition: 256 * 1024,
      });
      // Projections are stateless: the batches of one fetch commit together.
      const projections = new KafkaGroupRunner({ ...common, group: projectionsGroup(options.group), topics: PROJECTION_TOPICS, work: { perStream: projectionWork(outbox) },
        onCommitted: metrics ? (batch, applied) => metrics.committed({ group: 'projections', topic: batch.topic, batch, ...applied }) : undefined,
        concurrency: 1,
      });
      const runners = [processors, projections];
      for (const runner of runners) closers.push(() => runner.disconnect());
      await Promise.all(runners.map((r) => r.start()));
      // The daily purge of old volunteered events, as in the embedded serve: every member runs it,
      // which is safe (kafkaPurgeTarget).
      const endpoint = metrics ? await metrics.listen(options.metricsPort!) : null;
      if (endpoint) closers.push(() => endpoint.close());
      const purge = startPurgeSchedule(kafkaPurgeTarget(db, new KafkaEventLog(producer, options.topicPrefix), options.home), options.purge);
      logger.info({ group: options.group, topicPrefix: options.topicPrefix, pages: pages.index.size, metricsPort: endpoint?.port }, 'distributed serve running');
      return new DistributedServe(db, admin, producer, pages, relay, runners, sockets, purge, endpoint);
    } catch (err) {
      for (const close of closers.reverse()) await close().catch(() => {});
      throw err;
    }
  }

  /**
   * Graceful shutdown, in this order: (1) stop fetching — both group members and the page table;
   * the batches in flight finish and commit, and the members leave their groups so their
   * partitions move at once — and the purge schedule (a run in progress finishes: it needs the
   * producer and the database closed below); (2) flush the outbox relay; (3) disconnect the consumers, the producer and the
   * admin client, and close any broker connection they left open; (4) close the database.
   */
  stop(): Promise<void> {
    return (this.stopping ??= this.shutdown());
  }

  private async shutdown(): Promise<void> {
    const step = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
      try {
        await fn();
      } catch (err) {
        logger.warn({ err, step: what }, 'shutdown step failed; going on');
      }
    };
    if (this.metrics) await step('close metrics', () => this.metrics!.close());
    await step('stop fetching', () => Promise.all([...this.runners.map((r) => r.stop()), this.pages.stop(), this.purge.stop()]));
    await step('flush outbox', () => this.relay.stop());
    await step('disconnect', () => Promise.all([...this.runners.map((r) => r.disconnect()), this.pages.disconnect()]));
    await step('disconnect producer', () => this.producer.disconnect());
    await step('disconnect admin', () => this.admin.disconnect());
    const leaked = this.sockets.destroyLeftovers();
    if (leaked > 0) logger.warn({ sockets: leaked }, 'closed broker connections the Kafka clients left open');
    await step('close database', () => this.db.close());
  }
}
