// The test services themselves: a fresh PostgreSQL database per caller, and a Kafka broker
// that kafkajs can use for topics, produce/consume and classic consumer groups.
import { Kafka, logLevel, Partitioners, type Admin, type Consumer, type EachMessagePayload } from 'kafkajs';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaOrSkip, postgresOrSkip, servicesOrSkip } from '../../support/services.js';
import { waitForLeaders } from '../../../src/event-log/kafka/kafka-topics.js';

const pg = await postgresOrSkip();
const kafka = await kafkaOrSkip();

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!pg)('requirePostgres', () => {
  const db = pg!;
  afterAll(() => db.dropDatabase());

  it('gives a fresh database of its own that takes queries', async () => {
    expect(db.database).toMatch(/^bs_[0-9a-f]{12}$/);
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [{ name }] = await sql<{ name: string }[]>`select current_database() as name`;
      expect(name).toBe(db.database);
      const tables = await sql`select 1 from pg_tables where schemaname = 'public'`;
      expect(tables).toHaveLength(0);
      await sql`create table t (id int primary key, body text not null)`;
      await sql`insert into t values (1, 'one'), (2, 'two')`;
      const rows = await sql<{ id: number; body: string }[]>`select id, body from t order by id`;
      expect(rows.map((r) => r.body)).toEqual(['one', 'two']);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('gives each caller another database, and drops it even with connections open', async () => {
    const other = await postgresOrSkip();
    expect(other).toBeDefined();
    expect(other!.database).not.toBe(db.database);
    const sql = postgres(other!.url, { max: 1, onnotice: () => {} });
    const idle = postgres(other!.url, { max: 1, onnotice: () => {} });
    try {
      await sql`create table only_here (x int)`;
      await idle`select 1`; // a connection left open: WITH (FORCE) must close it
      await other!.dropDatabase();
      await other!.dropDatabase(); // idempotent
      await sql.end({ timeout: 1 }).catch(() => {});
      const again = postgres(other!.url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      await expect(again`select 1`).rejects.toMatchObject({ code: '3D000' }); // database does not exist
      await again.end({ timeout: 1 }).catch(() => {});
    } finally {
      await sql.end({ timeout: 1 }).catch(() => {});
      await idle.end({ timeout: 1 }).catch(() => {});
    }
  });
});

// vitest runs a skipped describe's body too (to collect its tests): touch the services only
// in hooks and tests.
describe.skipIf(!kafka)('requireKafka', () => {
  const k = kafka!;
  let client: Kafka;
  let admin: Admin;
  const consumers: Consumer[] = [];
  const groups: string[] = [];

  beforeAll(async () => {
    client = new Kafka({ clientId: 'services-test', brokers: k.brokers, logLevel: logLevel.NOTHING });
    admin = client.admin();
  });

  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.disconnect().catch(() => {})));
    if (groups.length > 0) await admin.deleteGroups(groups).catch(() => {});
    await admin.disconnect();
    await k.deleteTopics();
  });

  it('gives a unique topic prefix per call', async () => {
    expect(k.topicPrefix).toMatch(/^bstest\.[0-9a-f]{10}\.$/);
    expect(k.topic('events')).toBe(`${k.topicPrefix}events`);
    const other = await kafkaOrSkip();
    expect(other!.topicPrefix).not.toBe(k.topicPrefix);
    expect(other!.brokers).toEqual(k.brokers);
  });

  it('has auto topic creation off (topics are created explicitly)', async () => {
    const { brokers } = await admin.describeCluster();
    const configs = await admin.describeConfigs({
      resources: [{ type: 4 /* BROKER */, name: String(brokers[0]!.nodeId), configNames: ['auto.create.topics.enable'] }],
      includeSynonyms: false,
    });
    expect(configs.resources[0]!.configEntries[0]!.configValue).toBe('false');
  });

  it('creates a prefixed topic, produces and consumes a message, deletes the topic', async () => {
    const topic = k.topic('roundtrip');
    expect(await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: false })).toBe(true);
    // kafkajs' own wait gives up at a busy broker's first "not hosted here"; ours waits it out.
    await waitForLeaders(admin, [topic]);
    expect((await admin.fetchTopicMetadata({ topics: [topic] })).topics[0]!.partitions).toHaveLength(3);

    const producer = client.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const [sent] = await producer.send({ topic, messages: [{ key: 'k1', value: 'hello', partition: 1 }] });
    await producer.disconnect();
    expect(sent).toMatchObject({ partition: 1, baseOffset: '0' });

    const groupId = `${k.topicPrefix}roundtrip-group`;
    groups.push(groupId);
    const consumer = client.consumer({ groupId, maxWaitTimeInMs: 200 });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: string[] = [];
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        received.push(`${partition}:${message.offset}:${message.key?.toString()}=${message.value?.toString()}`);
      },
    });
    await waitFor('the message', () => received.length > 0);
    expect(received).toEqual(['1:0:k1=hello']);
    await consumer.disconnect();

    await k.deleteTopics();
    await waitFor('the topic to go', async () => !(await admin.listTopics()).includes(topic));
  });

  it('runs a classic consumer group: two members split the partitions, and rebalance on leave', async () => {
    const topic = k.topic('group');
    const groupId = `${k.topicPrefix}group`;
    groups.push(groupId);
    await admin.createTopics({ topics: [{ topic, numPartitions: 4 }], waitForLeaders: false });
    await waitForLeaders(admin, [topic]);

    const assignment: Record<string, number[]> = {};
    const seen: Record<string, string[]> = { a: [], b: [] };
    const start = async (name: 'a' | 'b') => {
      const consumer = client.consumer({ groupId, heartbeatInterval: 300, sessionTimeout: 10_000, maxWaitTimeInMs: 200 });
      consumers.push(consumer);
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        assignment[name] = [...(payload.memberAssignment[topic] ?? [])].sort();
      });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ partition, message }: EachMessagePayload) => {
          seen[name]!.push(`${partition}:${message.offset}`);
        },
      });
      return consumer;
    };

    await start('a');
    await waitFor('a to own all 4 partitions', () => assignment.a?.length === 4);
    const b = await start('b');
    await waitFor('a and b to own 2 partitions each', () => assignment.a?.length === 2 && assignment.b?.length === 2);
    expect([...assignment.a!, ...assignment.b!].sort()).toEqual([0, 1, 2, 3]);

    const producer = client.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const batch = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({ partition: i % 4, key: `${tag}${i}`, value: `${tag}${i}` }));
    // Delivery is at least once: a rebalance on a loaded machine may hand a message out
    // again, so count distinct partition:offset pairs.
    const distinct = () => new Set([...seen.a!, ...seen.b!]).size;
    await producer.send({ topic, messages: batch(40, 'x') });
    await waitFor('40 messages', () => distinct() === 40);
    expect(seen.a!.length).toBeGreaterThan(0);
    expect(seen.b!.length).toBeGreaterThan(0);

    await b.disconnect(); // LeaveGroup: a takes everything back
    await waitFor('a to own all 4 partitions again', () => assignment.a?.length === 4);
    await producer.send({ topic, messages: batch(8, 'y') });
    await producer.disconnect();
    await waitFor('48 messages', () => distinct() === 48);

    await waitFor('committed offsets to reach the end', async () => {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return offsets!.partitions.length === 4 && offsets!.partitions.reduce((sum, p) => sum + Number(p.offset), 0) === 48;
    });
  });
});

describe('servicesOrSkip', async () => {
  const svc = await servicesOrSkip({ postgres: true, kafka: true });

  it.skipIf(svc.skip)('hands out both services at once', () => {
    expect(svc.pg.url).toContain(svc.pg.database);
    expect(svc.kafka.topic('t')).toBe(`${svc.kafka.topicPrefix}t`);
  });

  it.runIf(svc.skip)('throws on use when skipped', () => {
    expect(() => svc.pg).toThrow(/skipped/);
  });
});
