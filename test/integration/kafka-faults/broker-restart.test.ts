// The broker restarted mid-stream: the serve's clients reconnect and finish, and the feedback log
// equals an uninterrupted run.
//
// Restarting the shared broker would break every other Kafka test file running at the same time,
// so this file starts a broker of its own with the same scripts (infra/kafka/start.sh, its own
// port and data dir) and restarts that one. It needs what the local broker needs (Java 17; the
// jars are cached by the first start): it runs when KAFKA_BROKERS names a broker on this machine
// (CI starts one with infra/kafka/start.sh) and is skipped, with a warning, otherwise. The serve
// retries a request 3 times only (BRAINSTREAM_KAFKA_RETRIES), so the outage outlasts kafkajs'
// patience and the consumers it gives up on must be replaced.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../../../src/db/pg-schema.js';
import { distributedTopologySettings } from '../../../src/distributed/distributed-settings.js';
import { processorName } from '../../../src/distributed/serve-work.js';
import { runCliAsync } from '../../support/cli.js';
import { postgresOrSkip } from '../../support/services.js';
import { conversationStream, jsonLines, streamPages, writeBrain, type TurnLine } from '../kafka/support/conversation-stream.js';
import { embeddedReference, feedbackRows, sessionStates, type PipelineResult } from '../kafka/support/embedded-reference.js';
import { waitForZeroLag } from '../kafka/support/group-lag.js';
import { holdTableLock, waitUntilBlocked } from '../kafka/support/pg-faults.js';
import { ServeProcess } from '../kafka/support/serve-process.js';
import { WAIT_BUDGET_MS } from '../kafka/support/wait-for.js';

const run = promisify(execFile);
const KAFKA_SCRIPTS = resolve(import.meta.dirname, '../../../infra/kafka');
const local = /^(127\.0\.0\.1|localhost):\d+$/.test((process.env.KAFKA_BROKERS ?? '').split(',')[0]!.trim());
if (!local) console.warn('[broker restart] SKIPPING: KAFKA_BROKERS does not name a broker on this machine, so infra/kafka cannot run a private one here');
const pg = local ? await postgresOrSkip() : undefined;

/** Two free consecutive ports (client, controller). */
async function freePorts(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((done) => {
      const s = createServer().once('error', () => done(false)).listen(port, '127.0.0.1', () => s.close(() => done(true)));
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 9_000) * 2;
    if ((await free(port)) && (await free(port + 1))) return port;
  }
}

describe.skipIf(!local || !pg)('distributed mode: the broker restarted mid-stream', () => {
  let dir: string;
  let port: number;
  let brokers: string[];
  let serve: ServeProcess | null = null;
  let lines: TurnLine[];
  let reference: PipelineResult;
  const prefix = `bsrestart.${process.pid}.`;
  const group = `${prefix}serve`;
  const broker = (script: 'start' | 'stop') =>
    run('bash', [join(KAFKA_SCRIPTS, `${script}.sh`), '--port', String(port)], { env: { ...process.env, BRAINSTREAM_KAFKA_DATA: join(dir, 'kafka') }, timeout: WAIT_BUDGET_MS });
  const flags = () => ['--kafka', brokers.join(','), '--topic-prefix', prefix];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bs-broker-restart-'));
    port = await freePorts();
    brokers = [`127.0.0.1:${port}`];
    const started = await broker('start');
    expect(started.stdout.trim()).toBe(`KAFKA_BROKERS=127.0.0.1:${port}`);
    const pages = streamPages();
    writeBrain(join(dir, 'brain'), pages);
    lines = conversationStream(pages, 20, 150);
    reference = await embeddedReference(join(dir, 'brain'), lines, distributedTopologySettings(join(dir, 'home')));
  });

  afterAll(async () => {
    if (serve) await serve.kill9();
    await broker('stop').catch(() => {});
    await pg?.dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  });

  it('processors reconnect and finish; the rows equal an uninterrupted run', async () => {
    const publish = async (args: string[], input?: string) => {
      const r = await runCliAsync([...args, ...flags()], { input });
      expect(r.code, r.stderr).toBe(0);
    };
    await publish(['publish', 'pages', join(dir, 'brain')]);
    const half = lines.length / 2;
    await publish(['publish', 'turns'], jsonLines(lines.slice(0, half)));
    serve = await ServeProcess.start({ brokers, topicPrefix: prefix, database: pg!.url, group, home: join(dir, 'home'), env: { BRAINSTREAM_KAFKA_RETRIES: '3' } });
    const started = serve;
    onTestFailed(() => console.error(`--- serve ${started.pid} (last lines of stderr) ---\n${started.stderr.slice(-60).join('\n')}`));
    await waitForZeroLag({ brokers, database: pg!.url, topicPrefix: prefix, group });
    // A batch is parked in its transaction when the broker goes down; it commits while the
    // broker is away (its offsets are in PostgreSQL), and the broker comes back.
    const lock = await holdTableLock(pg!.url, 'session_state');
    try {
      await publish(['publish', 'turns'], jsonLines(lines.slice(half)));
      await waitUntilBlocked(pg!.url, serve.pid);
      await broker('stop');
    } finally {
      await lock.release();
    }
    await broker('start');
    await waitForZeroLag({ brokers, database: pg!.url, topicPrefix: prefix, group });
    const db = openPostgresDb(pg!.url, { max: 1, schema: DEFAULT_PG_SCHEMA });
    try {
      expect(await feedbackRows(db)).toEqual(reference.rows);
      expect(await sessionStates(db, processorName(group))).toEqual(reference.sessions);
    } finally {
      await db.close();
    }
    expect(await serve.stop()).toBe(0);
    serve = null;
  });
});
