// Faults survived by the distributed mode, against the real broker and PostgreSQL, with real
// `serve --kafka` processes of the built CLI. Each scenario streams the same 10,000 turns (50
// conversations spanning the whole stream) through its own topics, group and database, then
// compares `context_volunteer_events` and the session states with an uninterrupted run of the
// same pipeline (the embedded mode, in this process). No assertion depends on timing: faults are
// placed by holding a lock on `session_state`, which parks a batch inside its transaction.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../../../src/db/pg-schema.js';
import { distributedTopologySettings } from '../../../src/distributed/distributed-settings.js';
import { processorName } from '../../../src/distributed/serve-work.js';
import { runCliAsync } from '../../support/cli.js';
import { requireKafka, requirePostgres, servicesOrSkip, type KafkaTopics, type PostgresDatabase } from '../../support/services.js';
import { conversationStream, jsonLines, streamPages, writeBrain, type TurnLine } from '../kafka/support/conversation-stream.js';
import { embeddedReference, feedbackRows, sessionStates, type PipelineResult } from '../kafka/support/embedded-reference.js';
import { waitForZeroLag } from '../kafka/support/group-lag.js';
import { holdTableLock, serveBackends, terminateBackends, waitUntilBlocked } from '../kafka/support/pg-faults.js';
import { ServeProcess } from '../kafka/support/serve-process.js';
import { waitFor } from '../kafka/support/wait-for.js';

const svc = await servicesOrSkip({ postgres: true, kafka: true });

/** One scenario's deployment: its own topics, consumer group and database. */
class Deployment {
  readonly serves: ServeProcess[] = [];
  private constructor(
    readonly kafka: KafkaTopics,
    readonly pg: PostgresDatabase,
    readonly home: string,
  ) {}

  static async create(home: string): Promise<Deployment> {
    return new Deployment(await requireKafka(), await requirePostgres(), home);
  }

  get group(): string {
    return `${this.kafka.topicPrefix}serve`;
  }

  private flags(): string[] {
    return ['--kafka', this.kafka.brokers.join(','), '--topic-prefix', this.kafka.topicPrefix];
  }

  async publishPages(dir: string): Promise<void> {
    const r = await runCliAsync(['publish', 'pages', dir, ...this.flags()]);
    expect(r.code, r.stderr).toBe(0);
  }

  async publishTurns(lines: readonly TurnLine[]): Promise<void> {
    const r = await runCliAsync(['publish', 'turns', ...this.flags()], { input: jsonLines(lines) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${lines.length} sent`);
  }

  async serve(): Promise<ServeProcess> {
    const s = await ServeProcess.start({ brokers: this.kafka.brokers, topicPrefix: this.kafka.topicPrefix, database: this.pg.url, group: this.group, home: this.home });
    this.serves.push(s);
    onTestFailed(() => console.error(`--- serve ${s.pid} (last lines of stderr) ---\n${s.stderr.slice(-40).join('\n')}`));
    return s;
  }

  caughtUp() {
    return waitForZeroLag({ brokers: this.kafka.brokers, database: this.pg.url, topicPrefix: this.kafka.topicPrefix, group: this.group });
  }

  /** The feedback log, this group's session states, and whether the outbox ever staged an event twice. */
  async result(): Promise<PipelineResult & { outboxDuplicates: number }> {
    const db = openPostgresDb(this.pg.url, { max: 1, schema: DEFAULT_PG_SCHEMA });
    try {
      const [dup] = await db.query<{ n: number }>(`SELECT (count(*) - count(DISTINCT payload->>'id'))::int AS n FROM outbox`);
      return { rows: await feedbackRows(db), sessions: await sessionStates(db, processorName(this.group)), outboxDuplicates: Number(dup!.n) };
    } finally {
      await db.close();
    }
  }

  async dispose(): Promise<void> {
    for (const s of this.serves) await s.kill9();
    await Promise.all([this.pg.dropDatabase(), this.kafka.deleteTopics()]);
  }
}

describe.skipIf(svc.skip)('distributed mode: faults survived (10,000-turn stream)', () => {
  let dir: string;
  let brainDir: string;
  let lines: TurnLine[];
  let reference: PipelineResult;
  const deployments: Deployment[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bs-kafka-faults-'));
    brainDir = join(dir, 'brain');
    const pages = streamPages();
    writeBrain(brainDir, pages);
    lines = conversationStream(pages);
    reference = await embeddedReference(brainDir, lines, distributedTopologySettings(join(dir, 'home')));
    // A stream worth the name: many pages volunteered, private ones never (remote traffic).
    expect(reference.rows.length).toBeGreaterThan(2000);
    const privateSlugs = new Set(pages.filter((p) => p.private).map((p) => p.slug));
    expect(reference.rows.filter((r) => privateSlugs.has(r.slug as string))).toEqual([]);
  });

  afterAll(async () => {
    for (const d of deployments) await d.dispose().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  const deployment = async (): Promise<Deployment> => {
    const d = await Deployment.create(join(dir, 'home'));
    deployments.push(d);
    await d.publishPages(brainDir);
    return d;
  };

  const expectEqualsReference = async (d: Deployment): Promise<void> => {
    const got = await d.result();
    expect(got.outboxDuplicates).toBe(0);
    expect(describeDifference(got, reference)).toBe('');
    expect(got.rows).toEqual(reference.rows);
    expect(got.sessions).toEqual(reference.sessions);
  };

  it('kill -9 of a processor in the middle of the stream, then a restart: nothing lost, nothing doubled', async () => {
    const d = await deployment();
    await d.publishTurns(lines.slice(0, 5000));
    const first = await d.serve();
    await d.caughtUp();
    // The second half arrives while a batch is parked inside its transaction; then kill -9.
    const lock = await holdTableLock(d.pg.url, 'session_state');
    try {
      await d.publishTurns(lines.slice(5000));
      await waitUntilBlocked(d.pg.url, first.pid);
      await first.kill9();
    } finally {
      await lock.release();
    }
    const second = await d.serve();
    await d.caughtUp();
    await expectEqualsReference(d);
    expect(await second.stop()).toBe(0);
  });

  it('a rebalance while a batch is in flight (a second member joins, then one leaves): same rows', async () => {
    const d = await deployment();
    const turnsTopic = d.kafka.topic('turns');
    await d.publishTurns(lines.slice(0, 4000));
    const a = await d.serve();
    await d.caughtUp();
    // A's batch is parked in its transaction (holding its partition's offset row) while B joins.
    // A sends no heartbeat meanwhile, so the group evicts it and B takes all eight partitions:
    // B's batches of A's partitions wait for A's row locks, then find A's work applied.
    const lock = await holdTableLock(d.pg.url, 'session_state');
    let b: ServeProcess;
    try {
      await d.publishTurns(lines.slice(4000, 7000));
      await waitUntilBlocked(d.pg.url, a.pid);
      b = await d.serve();
      await waitFor('B to own every turn partition', () => b.turnAssignments(d.group, turnsTopic).some((p) => p.length === 8));
    } finally {
      await lock.release();
    }
    // A finishes its parked batch as a former member, rejoins, and the partitions are shared.
    await waitFor('A and B to share the partitions', () => {
      const last = (s: ServeProcess) => s.turnAssignments(d.group, turnsTopic).at(-1) ?? [];
      return last(a).length > 0 && last(b).length > 0 && last(a).length + last(b).length === 8;
    });
    // Then one leaves while a batch is in flight.
    const again = await holdTableLock(d.pg.url, 'session_state');
    let stopped: Promise<number | null>;
    try {
      await d.publishTurns(lines.slice(7000));
      await waitFor('a parked batch of A or B', async () => (await serveBackends(d.pg.url, a.pid, true)).length + (await serveBackends(d.pg.url, b.pid, true)).length > 0);
      stopped = a.stop();
    } finally {
      await again.release();
    }
    expect(await stopped).toBe(0);
    await waitFor('B to own every turn partition again', () => b.turnAssignments(d.group, turnsTopic).at(-1)?.length === 8);
    await d.caughtUp();
    await expectEqualsReference(d);
    expect(await b.stop()).toBe(0);
  });

  it('PostgreSQL connections dropped mid-batch: the batch is retried, not skipped', async () => {
    const d = await deployment();
    await d.publishTurns(lines.slice(0, 5000));
    const serve = await d.serve();
    await d.caughtUp();
    const lock = await holdTableLock(d.pg.url, 'session_state');
    try {
      await d.publishTurns(lines.slice(5000));
      await waitUntilBlocked(d.pg.url, serve.pid);
      expect(await terminateBackends(d.pg.url, serve.pid)).toBeGreaterThan(0);
    } finally {
      await lock.release();
    }
    await d.caughtUp();
    const retried = serve.logs().filter((l) => l.msg === 'batch failed; retrying' && l.topic === d.kafka.topic('turns'));
    expect(retried.length).toBeGreaterThan(0);
    await expectEqualsReference(d);
    expect(await serve.stop()).toBe(0);
  });
});

/** What differs between two runs, briefly (first rows and sessions), or '' when they are equal. */
function describeDifference(got: PipelineResult, want: PipelineResult): string {
  const key = (r: object): string => JSON.stringify(r);
  const wantRows = new Set(want.rows.map(key));
  const gotRows = new Set(got.rows.map(key));
  const extra = got.rows.filter((r) => !wantRows.has(key(r)));
  const missing = want.rows.filter((r) => !gotRows.has(key(r)));
  const sessions = Object.keys({ ...got.sessions, ...want.sessions }).filter((s) => key(got.sessions[s] ?? {}) !== key(want.sessions[s] ?? {}));
  if (extra.length + missing.length + sessions.length === 0) return '';
  const brief = (rs: Record<string, unknown>[]): string => rs.slice(0, 5).map((r) => `${r.session_id}#${r.turn} ${r.slug}`).join(', ');
  return `${extra.length} extra rows (${brief(extra)}); ${missing.length} missing rows (${brief(missing)}); ` +
    `${sessions.length} sessions differ (${sessions.slice(0, 3).map((s) => `${s}: got turn ${got.sessions[s]?.turnNumber}, want ${want.sessions[s]?.turnNumber}`).join('; ')})`;
}
