// The distributed mode's commands, as a user runs them: publish (validated line by line), serve
// --kafka, consume volunteered, lag; poison messages go to the dead letters while the stream goes on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PG_SCHEMA } from '../../src/db/pg-schema.js';
import { openPostgresDb } from '../../src/db/postgres-db.js';
import { measureGroupLag, type GroupLag } from '../../src/distributed/group-lag.js';
import { runCliAsync, tempDir } from '../support/cli.js';
import { servicesOrSkip } from '../support/services.js';
import { ServeProcess } from '../integration/kafka/support/serve-process.js';
import { waitFor } from '../integration/kafka/support/wait-for.js';

const svc = await servicesOrSkip({ postgres: true, kafka: true });

const PAGES: Record<string, string> = {
  'people/alice-example.md': '---\ntitle: Alice Example\ntype: person\naliases: ["Alice"]\n---\n\nAlice is an early founder.\n',
  'people/bob-sample.md': '---\ntitle: Bob Sample\ntype: person\n---\n\nBob runs sales.\n',
  'people/carol-secret.md': '---\ntitle: Carol Secret\ntype: person\nvisibility: private\n---\n\nA private page.\n',
};

describe.skipIf(svc.skip)('distributed mode from the command line', () => {
  let dir: ReturnType<typeof tempDir>;
  let flags: string[];
  let serve: ServeProcess | null = null;
  const env = (): NodeJS.ProcessEnv => ({ BRAINSTREAM_HOME: join(dir.path, 'home'), KAFKA_BROKERS: svc.kafka.brokers.join(','), DATABASE_URL: svc.pg.url });
  const cli = (args: string[], input?: string) => runCliAsync([...args], { input, env: env() });
  const lag = async (): Promise<GroupLag> => {
    const r = await cli(['lag', '--json', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as GroupLag;
  };

  beforeAll(async () => {
    dir = tempDir('bs-kafka-cli-');
    flags = ['--topic-prefix', svc.kafka.topicPrefix];
    for (const [file, text] of Object.entries(PAGES)) {
      mkdirSync(join(dir.path, 'brain', file, '..'), { recursive: true });
      writeFileSync(join(dir.path, 'brain', file), text);
    }
    writeFileSync(join(dir.path, 'brain', 'broken.md'), '---\ntitle: [unclosed\n---\nbody\n');
  });

  afterAll(async () => {
    if (serve) await serve.kill9();
    dir?.cleanup();
  });

  it('refuses to run without brokers (usage error) and names the fix', async () => {
    const r = await runCliAsync(['publish', 'turns', ...flags], { input: '', env: { ...env(), KAFKA_BROKERS: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no Kafka brokers: pass --kafka host:port or set KAFKA_BROKERS');
  });

  it('publish pages: sends the folder as import reads it and reports the files it cannot', async () => {
    const r = await cli(['publish', 'pages', join(dir.path, 'brain'), ...flags]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`publish pages: 3 sent to ${svc.kafka.topic('pages')}, 1 failed (source default)`);
    expect(r.stderr).toContain('brainstream: publish pages: broken.md:');
  });

  it('publish turns: validates every line, reports bad ones by number, still sends the good ones', async () => {
    const input = [
      JSON.stringify({ session_id: 's1', role: 'user', text: 'ping Alice Example about the memo' }),
      'not json',
      JSON.stringify({ session_id: 's1', role: 'bot', text: 'x' }),
      '',
      JSON.stringify({ role: 'user', text: 'no session' }),
      JSON.stringify({ session_id: 's1', role: 'assistant', text: 'sure' }),
      JSON.stringify({ session_id: 's1', role: 'user', text: 'also intro Alice Example to Bob Sample and Carol Secret' }),
      JSON.stringify({ session_id: 's2', role: 'user', text: 'Carol Secret and Bob Sample', turn: 7, at: '2026-05-04T10:00:00Z' }),
    ].join('\n');
    const r = await cli(['publish', 'turns', '--json', ...flags], input);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ topic: svc.kafka.topic('turns'), sent: 4, rejected: 3 });
    expect(r.stderr).toContain('brainstream: publish turns: line 2: not JSON');
    expect(r.stderr).toContain('brainstream: publish turns: line 3: role: Invalid option');
    expect(r.stderr).toContain('brainstream: publish turns: line 5: session_id:');
  });

  it('publish retrievals: the same validation', async () => {
    const r = await cli(['publish', 'retrievals', ...flags], `${JSON.stringify({ slug: 'people/bob-sample', session_id: 's2' })}\n{"source_id":"default"}\n`);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('publish retrievals: 1 sent');
    expect(r.stderr).toContain('line 2: slug:');
  });

  it('serve --kafka decides the turns (remote: no private pages), dead-letters poison messages and goes on', async () => {
    // Poison in the partition of session s3, before good turns of s3.
    const kafka = new Kafka({ clientId: 'kafka-cli-test', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const unknownVersion = { id: 'x1', type: 'turn.appended', v: 9, key: 's3', at: '2026-05-04T10:00:00Z', data: {} };
    const wrongSchema = { id: 'x2', type: 'turn.appended', v: 2, key: 's3', at: '2026-05-04T10:00:00Z', data: { session_id: 's3' } };
    await producer.send({
      topic: svc.kafka.topic('turns'),
      messages: [{ key: 's3', value: 'not json {' }, { key: 's3', value: JSON.stringify(wrongSchema) }, { key: 's3', value: JSON.stringify(unknownVersion) }],
    });
    await producer.disconnect();
    const good = await cli(['publish', 'turns', ...flags], `${JSON.stringify({ session_id: 's3', role: 'user', text: 'is Bob Sample around?' })}\n`);
    expect(good.code, good.stderr).toBe(0);

    const group = `${svc.kafka.topicPrefix}serve`;
    serve = await ServeProcess.start({ brokers: svc.kafka.brokers, topicPrefix: svc.kafka.topicPrefix, database: svc.pg.url, group, home: join(dir.path, 'home') });
    const caughtUp = (l: GroupLag) => l.total === 0 && l.partitions.some((p) => p.committed !== null && p.topic.endsWith('.volunteered'));
    // Polled in this process (as `lag` measures it), so the wait starts no process per look.
    const db = openPostgresDb(svc.pg.url, { max: 1, schema: DEFAULT_PG_SCHEMA });
    const admin = new Kafka({ clientId: 'kafka-cli-lag', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING }).admin();
    try {
      await admin.connect();
      await waitFor('zero lag', async () => caughtUp(await measureGroupLag(db, admin, svc.kafka.topicPrefix, group)));
    } finally {
      await admin.disconnect().catch(() => {});
      await db.close();
    }
    const [done, human] = await Promise.all([lag(), cli(['lag', ...flags])]);
    expect(caughtUp(done)).toBe(true);
    expect(done.partitions.every((p) => p.lag === 0)).toBe(true);
    expect(human.stdout).toMatch(/total lag: 0\n$/);

    const sql = postgres(svc.pg.url, { max: 1, onnotice: () => {}, connection: { search_path: 'brainstream' } });
    try {
      const rows = await sql<{ session_id: string; turn: number; slug: string; channel: string }[]>`
        SELECT session_id, turn, slug, channel FROM context_volunteer_events ORDER BY session_id, turn, slug`;
      expect(rows).toEqual([
        { session_id: 's1', turn: 1, slug: 'people/alice-example', channel: 'watch' },
        { session_id: 's1', turn: 3, slug: 'people/bob-sample', channel: 'watch' },
        { session_id: 's2', turn: 7, slug: 'people/bob-sample', channel: 'watch' },
        { session_id: 's3', turn: 1, slug: 'people/bob-sample', channel: 'watch' },
      ]);
      const dead = await sql<{ origin: string; partition: number; offset: string; reason: string }[]>`
        SELECT origin, partition, "offset", reason FROM dead_letters ORDER BY "offset"::int`;
      expect(dead.map((d) => d.origin)).toEqual([1, 2, 3].map(() => svc.kafka.topic('turns')));
      expect(dead.map((d) => d.reason)).toEqual([
        expect.stringMatching(/^not JSON/),
        expect.stringMatching(/^invalid turn\.appended v2: /),
        'unknown version 9 of event type "turn.appended"',
      ]);
      const [retrieved] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM page_retrievals WHERE slug = 'people/bob-sample'`;
      expect(retrieved!.n).toBe(1);
      // The dead-letter topic has the same three, with their positions.
      const kafkaDlq = new Kafka({ clientId: 'kafka-cli-dlq', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING });
      const consumer = kafkaDlq.consumer({ groupId: `${svc.kafka.topicPrefix}dlq-reader` });
      const records: { origin: string; partition: number; offset: string }[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: svc.kafka.topic('dlq'), fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void records.push(JSON.parse(message.value!.toString()).data) });
      await waitFor('three dead-letter events', () => records.length >= 3);
      await consumer.disconnect();
      expect(records.map((d) => [d.origin, d.partition, d.offset])).toEqual(dead.map((d) => [d.origin, d.partition, d.offset]));
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('consume volunteered prints watch --json lines with the session id', async () => {
    const group = ['--group', `${svc.kafka.topicPrefix}reader`];
    // Two readers of their own, at once.
    const [r, first] = await Promise.all([
      cli(['consume', 'volunteered', '--from-beginning', '--max', '4', ...flags]),
      cli(['consume', 'volunteered', '--from-beginning', '--max', '3', ...group, ...flags]),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    const alice = lines.find((l) => l.slug === 'people/alice-example')!;
    expect(Object.keys(alice)).toEqual(['turn', 'slug', 'source_id', 'display', 'confidence', 'arm', 'rationale', 'synopsis', 'session_id']);
    expect(alice).toMatchObject({ turn: 1, source_id: 'default', display: 'Alice Example', arm: 'title', synopsis: 'Alice is an early founder.', session_id: 's1' });
    // A durable group resumes where it stopped; an idle timeout ends the command.
    const rest = await cli(['consume', 'volunteered', '--from-beginning', '--timeout-ms', '3000', ...group, ...flags]);
    expect(first.stdout.trim().split('\n')).toHaveLength(3);
    expect(rest.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('replay --kafka scores the logged turns of the deployment (poison messages counted as skipped)', async () => {
    const r = await cli(['replay', '--kafka', '--json', '--min-confidence', '0.7', '--workers', '0', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { turns: number; sessions: number; skipped_events: number; thresholds: { volunteered: number }[] };
    expect(report).toMatchObject({ turns: 5, sessions: 3, skipped_events: 3 });
    expect(report.thresholds[0]!.volunteered).toBe(4);
  });

  it('SIGTERM: the serve stops gracefully and exits 0', async () => {
    expect(await serve!.stop()).toBe(0);
    expect(serve!.stderr).toContain('[serve] stopped');
    serve = null;
  });
});
