// The Kafka side of the log, in this process against the real broker (and PostgreSQL for the
// outbox): topics as documented, keys and order, the page table as a global table, the relay.
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/db.js';
import { openDistributedDb } from '../../../src/distributed/distributed-db.js';
import { deterministicId, makeEvent, pageKey, type Envelope, type Topic } from '../../../src/domain/events.js';
import { createIdempotentProducer, KafkaEventLog } from '../../../src/event-log/kafka/kafka-event-log.js';
import { ensureTopics, kafkaTopicName, replicationFor, TOPIC_SPECS } from '../../../src/event-log/kafka/kafka-topics.js';
import { OutboxAppender } from '../../../src/event-log/kafka/outbox-appender.js';
import { OutboxRelay } from '../../../src/event-log/kafka/outbox-relay.js';
import { KafkaPageTable } from '../../../src/event-log/kafka/page-table.js';
import { servicesOrSkip } from '../../support/services.js';
import { waitFor } from './support/wait-for.js';

const svc = await servicesOrSkip({ postgres: true, kafka: true });

const page = (slug: string, title: string) =>
  makeEvent('page.upserted', { source_id: 'default', slug, title, type: 'person', frontmatter: {}, compiled_truth: `${title} works here.`, timeline: '', content_hash: slug, file_path: null, origin: 'import' }, { key: pageKey('default', slug) });

const turn = (session: string, n: number) =>
  makeEvent('turn.appended', { session_id: session, turn: n, role: 'user', text: `turn ${n}`, source_id: 'default' }, { key: session });

const volunteered = (session: string, n: number) =>
  makeEvent('page.volunteered', { source_id: 'default', slug: 'people/x', confidence: 0.9, match_arm: 'title', rationale: 'r', channel: 'watch', session_id: session, turn: n, display: 'X', synopsis: '' }, { key: session, id: deterministicId('vol', session, n) });

describe.skipIf(svc.skip)('Kafka log (real broker)', () => {
  let kafka: Kafka;
  let admin: Admin;
  let log: KafkaEventLog;
  let producerDisconnect: () => Promise<void>;
  let db: Db;
  let prefix: string;

  /** Every message of a topic, read with a private group from the beginning. */
  async function readAll(topic: Topic, count: number): Promise<{ partition: number; key: string; event: Envelope }[]> {
    const got: { partition: number; key: string; event: Envelope }[] = [];
    const consumer = kafka.consumer({ groupId: `${prefix}read-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: kafkaTopicName(prefix, topic), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }) => {
          got.push({ partition, key: message.key!.toString(), event: JSON.parse(message.value!.toString()) as Envelope });
        },
      });
      await waitFor(`${count} messages on ${topic}`, () => got.length >= count);
    } finally {
      await consumer.disconnect();
    }
    return got;
  }

  beforeAll(async () => {
    prefix = svc.kafka.topicPrefix;
    kafka = new Kafka({ clientId: 'kafka-log-test', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING });
    admin = kafka.admin();
    await admin.connect();
    const producer = createIdempotentProducer(kafka);
    await producer.connect();
    producerDisconnect = () => producer.disconnect();
    log = new KafkaEventLog(producer, prefix);
    db = await openDistributedDb(svc.pg.url, { pool: 2, applicationName: 'kafka-log-test' });
  });

  afterAll(async () => {
    await producerDisconnect?.();
    await admin?.disconnect();
    await db?.close();
  });

  it('creates every topic with its documented partitions and retention, once', async () => {
    expect((await ensureTopics(admin, prefix)).sort()).toEqual(Object.keys(TOPIC_SPECS).map((t) => `${prefix}${t}`).sort());
    expect(await ensureTopics(admin, prefix)).toEqual([]);
    const meta = await admin.fetchTopicMetadata({ topics: Object.keys(TOPIC_SPECS).map((t) => `${prefix}${t}`) });
    for (const t of meta.topics) expect(t.partitions.length).toBe(TOPIC_SPECS[t.name.slice(prefix.length) as Topic].partitions);
    // Replicated as the cluster allows: 1 copy on one broker, 3 (2 in sync to acknowledge) on three or more.
    const { replicationFactor, minInsyncReplicas } = replicationFor((await admin.describeCluster()).brokers.length);
    for (const t of meta.topics) for (const p of t.partitions) expect(p.replicas).toHaveLength(replicationFactor);
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: (['turns', 'retrievals', 'pages'] as const).map((t) => ({ type: 2 /* TOPIC */, name: `${prefix}${t}`, configNames: ['retention.ms', 'min.insync.replicas'] })),
    });
    const setting = (r: (typeof configs.resources)[number], name: string): number => Number(r.configEntries.find((e) => e.configName === name)!.configValue);
    for (const r of configs.resources) expect(setting(r, 'min.insync.replicas')).toBe(minInsyncReplicas);
    const retention = Object.fromEntries(configs.resources.map((r) => [r.resourceName.slice(prefix.length), setting(r, 'retention.ms')]));
    expect(retention.turns).toBeGreaterThanOrEqual(90 * 86_400_000);
    expect(retention.retrievals).toBeGreaterThanOrEqual(90 * 86_400_000);
    expect(retention.pages).toBe(-1);
  });

  it('keys turns by session: each session in one partition, in order', async () => {
    const events = [0, 1, 2].flatMap((n) => ['s-a', 's-b', 's-c', 's-d'].map((s) => turn(s, n + 1)));
    await log.append(events);
    const got = await readAll('turns', events.length);
    for (const s of ['s-a', 's-b', 's-c', 's-d']) {
      const mine = got.filter((g) => g.key === s);
      expect(new Set(mine.map((m) => m.partition)).size).toBe(1);
      expect(mine.map((m) => (m.event.data as { turn: number }).turn)).toEqual([1, 2, 3]);
    }
  });

  it('the page table holds every page written before it started, and later ones from the next refresh', async () => {
    await log.append([page('people/ada', 'Ada Quill'), page('people/bo', 'Bo Tern')]);
    const table = await KafkaPageTable.start({ kafka, admin, topicPrefix: prefix, group: `${prefix}serve` });
    try {
      expect(table.index.get('default', 'people/ada')?.title).toBe('Ada Quill');
      expect(table.index.size).toBe(2);
      await log.append([page('people/cy', 'Cy Lark')]);
      await waitFor('the page event to arrive', async () => {
        await table.refresh();
        return table.index.get('default', 'people/cy');
      });
    } finally {
      await table.stop();
      await table.disconnect();
    }
  });

  it('the relay publishes staged events keyed by session and marks them; an expired claim is published again', async () => {
    const staged = [volunteered('s-1', 1), volunteered('s-1', 2), volunteered('s-2', 1)];
    await db.transaction((tx) => new OutboxAppender().append(staged, tx));
    // A relay that claimed this one and died: its claim has run out.
    const orphan = volunteered('s-3', 1);
    await db.transaction((tx) => new OutboxAppender().append([orphan], tx));
    await db.query(`UPDATE outbox SET claimed_until = now() - interval '1 second' WHERE payload->>'id' = $1`, [orphan.id]);
    const relay = new OutboxRelay(db, log, prefix, { pollMs: 50 });
    relay.start();
    await waitFor('the outbox to be published', async () => Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL'))[0]!.n) === 0);
    expect(await relay.stop()).toBe(0);
    const got = await readAll('volunteered', 4);
    expect(got.map((g) => g.event.id).sort()).toEqual([...staged, orphan].map((e) => e.id).sort());
    expect(got.filter((g) => g.key === 's-1').map((g) => (g.event.data as { turn: number }).turn)).toEqual([1, 2]);
  });
});
