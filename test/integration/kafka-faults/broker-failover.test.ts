// Distributed mode on a three-broker cluster (replication factor 3, min.insync.replicas 2): a broker
// killed mid-stream, a rolling restart, two brokers down for longer than the producers retry, and
// a serve member killed during the rebalance a broker failure causes. Each scenario ends with the
// feedback rows and session states of an uninterrupted embedded run of the same input, an empty
// outbox and zero lag: nothing lost, nothing doubled. When rows are missing, the volunteered ids
// are followed through the outbox, the topic and the table, so a failure names the stage that
// lost them.
//
// The cluster (KAFKA_CLUSTER_BROKERS, KAFKA_CLUSTER_DATA; .ci/run starts it) is shared by the
// scenarios, so they run one after the other, each on its own topic prefix, group and database,
// and each leaves all three nodes up, even when it fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../../../src/db/pg-schema.js';
import { distributedTopologySettings } from '../../../src/distributed/distributed-settings.js';
import { processorName } from '../../../src/distributed/serve-work.js';
import { runCliAsync, type CliResult } from '../../support/cli.js';
import { requirePostgres, type PostgresDatabase } from '../../support/services.js';
import { conversationStream, jsonLines, streamPages, writeBrain, type TurnLine } from '../kafka/support/conversation-stream.js';
import { embeddedReference, feedbackRows, sessionStates, type PipelineResult } from '../kafka/support/embedded-reference.js';
import { waitForZeroLag } from '../kafka/support/group-lag.js';
import { holdTableLock, waitUntilBlocked } from '../kafka/support/pg-faults.js';
import { ServeProcess } from '../kafka/support/serve-process.js';
import { waitFor } from '../kafka/support/wait-for.js';
import { busiestLeader, clusterOrSkip, killNode, NODES, restartNode, startAll, stopNode, waitForFullIsr, waitForIsr } from './cluster-support.js';
import { trailGaps, volunteeredTrail } from './volunteered-trail.js';

const cluster = clusterOrSkip();

describe.skipIf(!cluster).sequential('distributed mode on a three-broker cluster', () => {
  let dir: string;
  let lines: TurnLine[];
  let reference: PipelineResult;
  // What the current scenario started; the afterEach hook undoes it, pass or fail.
  let serves: ServeProcess[] = [];
  let databases: PostgresDatabase[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bs-broker-failover-'));
    const pages = streamPages();
    writeBrain(join(dir, 'brain'), pages);
    lines = conversationStream(pages, 12, 50);
    reference = await embeddedReference(join(dir, 'brain'), lines, distributedTopologySettings(join(dir, 'home')));
  });

  afterEach(async () => {
    for (const s of serves) await s.kill9();
    serves = [];
    await startAll(cluster!);
    for (const db of databases) await db.dropDatabase();
    databases = [];
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A scenario's own prefix, group, database and CLI calls. */
  async function scenario(name: string) {
    const prefix = `bsfailover.${name}.${process.pid}.`;
    const group = `${prefix}serve`;
    const pg = await requirePostgres();
    databases.push(pg);
    const topic = (t: string) => `${prefix}${t}`;
    const cli = (args: string[], input?: string): Promise<CliResult> =>
      runCliAsync([...args, '--kafka', cluster!.brokers.join(','), '--topic-prefix', prefix], { input });
    const publish = async (args: string[], input?: string) => {
      const r = await cli(args, input);
      expect(r.code, r.stderr).toBe(0);
    };
    const serve = async (member: string, env?: NodeJS.ProcessEnv) => {
      const s = await ServeProcess.start({ brokers: cluster!.brokers, topicPrefix: prefix, database: pg.url, group, home: join(dir, `home-${name}-${member}`), env });
      serves.push(s);
      onTestFailed(() => console.error(`--- ${name} serve ${member} (pid ${s.pid}), last lines of stderr ---\n${s.stderr.slice(-60).join('\n')}`));
      return s;
    };
    const zeroLag = () => waitForZeroLag({ brokers: cluster!.brokers, database: pg.url, topicPrefix: prefix, group });
    const rowCount = async () => {
      const db = openPostgresDb(pg.url, { max: 1, schema: DEFAULT_PG_SCHEMA });
      try {
        const [r] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM context_volunteer_events');
        return Number(r!.n);
      } catch {
        return 0; // before the serve's migrations
      } finally {
        await db.close();
      }
    };
    /**
     * Zero lag, an empty outbox, every volunteered id through every stage once, and the
     * reference's rows and sessions exactly.
     */
    const expectReference = async () => {
      const lag = await zeroLag();
      expect(lag.outbox_pending).toBe(0);
      expect(lag.partitions.filter((p) => p.end > 0 && p.committed !== p.end)).toEqual([]);
      const trail = await volunteeredTrail(pg.url, cluster!.brokers, topic('volunteered'));
      const gaps = trailGaps(reference.rows.map((r) => String(r.id)), trail);
      const counts = { reference: reference.rows.length, outbox: trail.outbox.length, published: trail.published.length, topic: trail.topic.length, table: trail.table.length };
      expect({ ...gaps, counts }).toEqual({ notDecided: [], decidedTwice: [], notOnTopic: [], notProjected: [], unexpected: [], counts: { ...counts, table: reference.rows.length } });
      const db = openPostgresDb(pg.url, { max: 1, schema: DEFAULT_PG_SCHEMA });
      try {
        expect(await feedbackRows(db)).toEqual(reference.rows);
        expect(await sessionStates(db, processorName(group))).toEqual(reference.sessions);
      } finally {
        await db.close();
      }
    };
    await publish(['publish', 'pages', join(dir, 'brain')]);
    return { prefix, group, pg, topic, cli, publish, serve, zeroLag, rowCount, expectReference };
  }

  it('the leader of the turns and volunteered partitions is killed -9 mid-stream and comes back', async () => {
    const s = await scenario('kill');
    const half = lines.length / 2;
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(0, half)));
    const serve = await s.serve('a');
    await s.zeroLag();
    const before = await s.rowCount();
    const leader = await busiestLeader(cluster!, [s.topic('turns'), s.topic('volunteered')]);
    // Published before the kill, decided while it happens: a one-shot publish racing a broker's
    // death may give up before the cluster has fenced it, which the two-brokers case covers.
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(half)));
    await waitFor('the serve to work on the second half', async () => (await s.rowCount()) > before);
    await killNode(cluster!, leader);
    await startAll(cluster!);
    await s.expectReference();
    expect(await serve.stop()).toBe(0);
    serves = [];
  });

  it('a rolling restart of all three brokers while turns flow', async () => {
    const s = await scenario('rolling');
    const topics = ['turns', 'volunteered', 'retrievals', 'pages'].map(s.topic);
    const chunk = Math.ceil(lines.length / (NODES.length + 1));
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(0, chunk)));
    const serve = await s.serve('a');
    for (const node of NODES) {
      const from = chunk * node;
      await s.publish(['publish', 'turns'], jsonLines(lines.slice(from, from + chunk)));
      await restartNode(cluster!, node);
      await waitForFullIsr(cluster!, topics);
    }
    await s.expectReference();
    expect(await serve.stop()).toBe(0);
    serves = [];
  });

  it('two brokers down longer than the producers retry: publishing fails loudly, nothing is dropped, everything arrives after', async () => {
    const s = await scenario('outage');
    const topics = ['turns', 'volunteered'].map(s.topic);
    const [first, second] = [Math.floor(lines.length / 3), Math.floor((2 * lines.length) / 3)];
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(0, first)));
    // Three retries: the relay's sends give up during the outage and must be tried again later.
    const serve = await s.serve('a', { BRAINSTREAM_KAFKA_RETRIES: '3' });
    await s.zeroLag();
    // A batch of the second third is parked in its transaction while two brokers go down; it
    // commits then, so its volunteered events wait in the outbox for brokers that cannot take them.
    const lock = await holdTableLock(s.pg.url, 'session_state');
    try {
      await s.publish(['publish', 'turns'], jsonLines(lines.slice(first, second)));
      await waitUntilBlocked(s.pg.url, serve.pid);
      await stopNode(cluster!, 3);
      await stopNode(cluster!, 2);
      await waitForIsr(cluster!, topics, 'one in-sync replica left', (isr) => isr.length === 1);
    } finally {
      await lock.release();
    }
    await serve.waitForLine('the relay to give up a send and keep its rows', (l) => l.includes('outbox publication failed; retrying'));
    // One in-sync replica is fewer than min.insync.replicas: no write can be acknowledged.
    const refused = await s.cli(['publish', 'turns'], jsonLines(lines.slice(second)));
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toMatch(/^brainstream: [a-z_-]+: /m);
    await startAll(cluster!);
    await waitForFullIsr(cluster!, topics);
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(second)));
    await s.expectReference();
    expect(await serve.stop()).toBe(0);
    serves = [];
  });

  it('a serve member is killed -9 during the rebalance a broker failure causes', async () => {
    const s = await scenario('member');
    const half = lines.length / 2;
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(0, half)));
    const a = await s.serve('a');
    const b = await s.serve('b');
    await waitFor('both members to hold turn partitions', () =>
      [a, b].every((m) => m.turnAssignments(s.group, s.topic('turns')).at(-1)?.length));
    const assignedBefore = [a, b].map((m) => m.turnAssignments(s.group, s.topic('turns')).length);
    const leader = await busiestLeader(cluster!, [s.topic('turns'), s.topic('volunteered')]);
    await s.publish(['publish', 'turns'], jsonLines(lines.slice(half)));
    await killNode(cluster!, leader);
    // The group rebalances; b dies while it does (as soon as either member is handed partitions anew).
    await waitFor('a rebalance after the broker failure', () =>
      [a, b].some((m, i) => m.turnAssignments(s.group, s.topic('turns')).length > assignedBefore[i]!) ||
      [a, b].some((m) => m.stderr.some((l) => l.includes('rebalanc'))));
    await b.kill9();
    await startAll(cluster!);
    // b may have finished its share before it died: zero lag alone does not show a took it over.
    await waitFor('the surviving member to hold every turn partition', () =>
      a.turnAssignments(s.group, s.topic('turns')).at(-1)?.join() === '0,1,2,3,4,5,6,7');
    await s.expectReference();
    expect(await a.stop()).toBe(0);
    serves = [];
  });
});
