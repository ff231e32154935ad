// The 90-day retention purge of a distributed deployment, against the real broker and PostgreSQL:
// volunteered events published with old event times go through the real projections (a `serve
// --kafka` of the built CLI), the purge's decision goes to Kafka and comes back through them, and
// rows are deleted below the watermark they applied. The serve runs only while the test waits for
// it, so whether the projections have applied a decision yet is never a race: every count is exact.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/db.js';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../../../src/db/pg-schema.js';
import { kafkaPurgeTarget } from '../../../src/distributed/distributed-purge.js';
import { DistributedServe } from '../../../src/distributed/distributed-serve.js';
import { withKafkaPublisher } from '../../../src/distributed/kafka-publisher.js';
import type { Envelope } from '../../../src/domain/events.js';
import { kafkaTopicName } from '../../../src/event-log/kafka/kafka-topics.js';
import { readWatermark } from '../../../projections/retention-watermark.js';
import { USAGE_RETENTION_TABLE } from '../../../projections/usage-stats-projection.js';
import { VOLUNTEER_RETENTION_TABLE } from '../../../projections/volunteer-events-projection.js';
import { purgeVolunteerEvents } from '../../../projections/volunteer-purge.js';
import { runCliAsync, tempDir } from '../../support/cli.js';
import { volunteered } from '../../support/feedback-log.js';
import { servicesOrSkip } from '../../support/services.js';
import { waitForZeroLag } from './support/group-lag.js';
import { ServeProcess } from './support/serve-process.js';
import { waitFor } from './support/wait-for.js';

const svc = await servicesOrSkip({ postgres: true, kafka: true });

const DAY = 86_400_000;
/** Keeps the "exactly 90 days" event of the CLI's round on the fresh side: the CLI runs on the wall clock, moments after staging. */
const SLACK = 10 * 60_000;
const iso = (ms: number): string => new Date(ms).toISOString();

describe.skipIf(svc.skip)('retention purge in the distributed mode', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Db;
  /** When the events were staged (wall clock). */
  let t0: number;
  /** The function's round purges as of ten days earlier, so the CLI's round (wall clock) still finds its own stale events. */
  let asOf: Date;
  const settings = () => ({ brokers: svc.kafka.brokers, topicPrefix: svc.kafka.topicPrefix });
  const group = () => `${svc.kafka.topicPrefix}serve`;
  const home = () => join(dir.path, 'home');

  const publish = (events: readonly Envelope[]): Promise<void> => withKafkaPublisher(settings(), (log) => log.append(events));
  const ids = async (table: string): Promise<string[]> => (await db.query<{ id: string }>(`SELECT id FROM ${table} ORDER BY id COLLATE "C"`)).map((r) => r.id);
  const both = async () => ({ feedback: await ids('context_volunteer_events'), facts: await ids('usage_facts') });
  const kept = (...expected: string[]) => ({ feedback: expected.sort(), facts: expected.sort() });

  /** A `serve --kafka` of the built CLI until the group has applied everything published so far, then stopped. */
  async function project(): Promise<void> {
    const serve = await ServeProcess.start({ brokers: svc.kafka.brokers, topicPrefix: svc.kafka.topicPrefix, database: svc.pg.url, group: group(), home: home() });
    try {
      await waitForZeroLag({ brokers: svc.kafka.brokers, database: svc.pg.url, topicPrefix: svc.kafka.topicPrefix, group: group() });
    } catch (err) {
      await serve.kill9();
      throw new Error(`${(err as Error).message}\n--- serve ${serve.pid} ---\n${serve.stderr.slice(-40).join('\n')}`);
    }
    expect(await serve.stop()).toBe(0);
  }

  const purgeCli = async (...args: string[]): Promise<Record<string, unknown> & { stderr: string }> => {
    const r = await runCliAsync(['purge', '--json', '--kafka', svc.kafka.brokers.join(','), '--topic-prefix', svc.kafka.topicPrefix, '--database', svc.pg.url, ...args], {
      env: { BRAINSTREAM_HOME: home() },
    });
    expect(r.code, r.stderr).toBe(0);
    return { ...(JSON.parse(r.stdout) as Record<string, unknown>), stderr: r.stderr };
  };

  beforeAll(async () => {
    dir = tempDir('bs-kafka-purge-');
    t0 = Date.now();
    asOf = new Date(t0 - 10 * DAY);
    const at = asOf.getTime();
    await publish([
      volunteered('fn-089', 'people/alice', 'title', 'watch', 's1', iso(at - 89 * DAY)),
      volunteered('fn-090', 'people/alice', 'title', 'watch', 's2', iso(at - 90 * DAY)),
      volunteered('fn-090-1ms', 'people/alice', 'title', 'watch', 's3', iso(at - 90 * DAY - 1)),
      volunteered('fn-091', 'people/alice', 'title', 'watch', 's4', iso(at - 91 * DAY)),
      volunteered('cli-089', 'people/bob', 'alias', 'watch', 's5', iso(t0 - 89 * DAY)),
      volunteered('cli-090', 'people/bob', 'alias', 'watch', 's6', iso(t0 - 90 * DAY + SLACK)),
      volunteered('cli-091', 'people/bob', 'alias', 'watch', 's7', iso(t0 - 91 * DAY)),
    ]);
    await project();
    db = openPostgresDb(svc.pg.url, { max: 2, schema: DEFAULT_PG_SCHEMA });
  });

  afterAll(async () => {
    await db?.close();
    dir?.cleanup();
  });

  it('the projections consumed the volunteered events from Kafka', async () => {
    expect(await both()).toEqual(kept('fn-089', 'fn-090', 'fn-090-1ms', 'fn-091', 'cli-089', 'cli-090', 'cli-091'));
  });

  it('purgeVolunteerEvents on the deployment: the decision goes to Kafka; rows go once the projections applied it', async () => {
    const purgedBefore = iso(asOf.getTime() - 90 * DAY);
    const run = () => withKafkaPublisher(settings(), (log) => purgeVolunteerEvents(kafkaPurgeTarget(db, log, home()), { ttlDays: 90, now: asOf, batchSize: 1 }));
    // Not applied yet (no serve runs): the first run publishes its decision and deletes nothing.
    expect(await run()).toEqual({ purged: 0, purgedBefore, ttlDays: 90 });
    expect(await readWatermark(db, VOLUNTEER_RETENTION_TABLE)).toBeNull();
    const decisions = await purgeDecisions(1);
    expect(decisions).toEqual([{ key: 'purge', type: 'volunteer.purged', data: { purged_before: purgedBefore, ttl_days: 90 } }]);

    await project();
    // Both projections met the decision on the volunteered topic and raised their watermark.
    expect(await readWatermark(db, VOLUNTEER_RETENTION_TABLE)).toBe(Date.parse(purgedBefore));
    expect(await readWatermark(db, USAGE_RETENTION_TABLE)).toBe(Date.parse(purgedBefore));
    // The next run deletes: event time 90 days + 1 ms and 91 days before `now` go, exactly 90 and 89 stay.
    expect(await run()).toEqual({ purged: 2, purgedBefore, ttlDays: 90 });
    expect(await both()).toEqual(kept('fn-089', 'fn-090', 'cli-089', 'cli-090', 'cli-091'));
    // The watermark was applied already: nothing new was published.
    expect(await run()).toEqual({ purged: 0, purgedBefore, ttlDays: 90 });
    expect(await purgeDecisions(1)).toHaveLength(1);
  });

  it('brainstream purge --kafka --database: --dry-run counts only; a run publishes, the next one deletes', async () => {
    // Stale at the wall clock: the function's two survivors (99 and 100 days old) and cli-091.
    const dry = await purgeCli('--dry-run');
    expect(dry).toMatchObject({ purged: 0, would_purge: 3, dry_run: true });
    expect(await both()).toEqual(kept('fn-089', 'fn-090', 'cli-089', 'cli-090', 'cli-091'));
    expect(await purgeDecisions(1)).toHaveLength(1);

    const first = await purgeCli();
    expect(first).toMatchObject({ purged: 0, awaiting_projections: 3 });
    expect(first.stderr).toContain('3 stale volunteer event(s) remain until the projections apply the purge');
    await project();
    const second = await purgeCli();
    expect(second).toMatchObject({ purged: 3, awaiting_projections: 0 });
    expect(second.stderr).not.toContain('remain until');
    expect(await both()).toEqual(kept('cli-089', 'cli-090'));
  });

  it('serve --kafka runs the purge on its schedule and stops it on shutdown', async () => {
    await publish([volunteered('sched-29', 'people/carol', 'title', 'watch', 's8', iso(Date.now() - 29 * DAY))]);
    // In this process, so that the schedule can start at once; a 30-day retention makes every row but sched-29 stale.
    const serve = await DistributedServe.start({
      ...settings(), databaseUrl: svc.pg.url, group: group(), home: home(), sessionTimeoutMs: 6000,
      purge: { ttlDays: () => 30, firstDelayMs: 0, intervalMs: 250 },
    });
    try {
      await waitForZeroLag({ brokers: svc.kafka.brokers, database: svc.pg.url, topicPrefix: svc.kafka.topicPrefix, group: group() });
      // Its decision goes round through Kafka and the projections; a later run deletes.
      await waitFor('the schedule to purge every row older than 30 days', async () => JSON.stringify(await both()) === JSON.stringify(kept('sched-29')));
    } finally {
      await serve.stop();
    }
    expect(await both()).toEqual(kept('sched-29'));
    expect(await readWatermark(db, VOLUNTEER_RETENTION_TABLE)).toBeGreaterThan(Date.parse(iso(Date.now() - 31 * DAY)));
  });

  /** The purge decisions on the volunteered topic, read from the beginning until `count` are there. */
  async function purgeDecisions(count: number): Promise<{ key: string; type: string; data: unknown }[]> {
    const kafka = new Kafka({ clientId: 'purge-test-reader', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `${svc.kafka.topicPrefix}read-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const seen: { key: string; type: string; data: unknown }[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: kafkaTopicName(svc.kafka.topicPrefix, 'volunteered'), fromBeginning: true });
      const total = await volunteeredMessages();
      let read = 0;
      await consumer.run({
        eachMessage: async ({ message }) => {
          read++;
          const e = JSON.parse(message.value!.toString()) as Envelope;
          if (e.type === 'volunteer.purged') seen.push({ key: message.key!.toString(), type: e.type, data: e.data });
        },
      });
      await waitFor(`${total} messages of the volunteered topic`, () => read >= total && seen.length >= count);
    } finally {
      await consumer.disconnect();
    }
    return seen;
  }

  /** How many messages the volunteered topic holds now (every partition's high watermark). */
  async function volunteeredMessages(): Promise<number> {
    const admin = new Kafka({ clientId: 'purge-test-admin', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const offsets = await admin.fetchTopicOffsets(kafkaTopicName(svc.kafka.topicPrefix, 'volunteered'));
      return offsets.reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
    } finally {
      await admin.disconnect();
    }
  }
});
