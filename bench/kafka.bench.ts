import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { openDistributedDb } from '../src/distributed/distributed-db.js';
import { measureGroupLag } from '../src/distributed/group-lag.js';
import { withKafkaPublisher } from '../src/distributed/kafka-publisher.js';
import { projectionsGroup } from '../src/distributed/serve-work.js';
import { makeEvent, pageKey, type Envelope } from '../src/domain/events.js';
import { createKafkaClient } from '../src/event-log/kafka/kafka-client.js';
import { generatePages } from './generate-brain.js';
import { median, percentile, type Measurement } from './harness.js';
import { tempFolder } from './temp-folder.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/** Notes the commit time of every volunteered row (a deferred trigger runs at COMMIT). Bench database only. */
const COMMIT_CLOCK = `
CREATE TABLE bench_commit_times (id TEXT PRIMARY KEY, committed_at TIMESTAMPTZ NOT NULL);
CREATE FUNCTION bench_note_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO bench_commit_times VALUES (NEW.id, clock_timestamp()) ON CONFLICT DO NOTHING; RETURN NULL; END $$;
CREATE CONSTRAINT TRIGGER bench_commit AFTER INSERT ON context_volunteer_events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bench_note_commit();`;

/** Entities one conversation keeps coming back to, and its length in turns. */
const TOPICS_PER_SESSION = 8;
const SESSION_TURNS = 40;

/**
 * Turn `i` of the stream: `slots` conversations run at once, round robin; each slot holds
 * sessions of SESSION_TURNS turns back to back, and slots are staggered, so sessions start
 * and end all the time (as in a real stream), not all together.
 */
function sessionTurn(i: number, slots: number): { session: string; turn: number } {
  const slot = i % slots;
  const k = Math.floor(i / slots) + (slot % SESSION_TURNS);
  return { session: `bench-${slot}-${Math.floor(k / SESSION_TURNS)}`, turn: (k % SESSION_TURNS) + 1 };
}

/**
 * Turn `n` (1-based) of session `s`: users name the session's entities by title or alias (a
 * different one each time, round the session's few), assistants mostly do not. A page is
 * volunteered at its first mention in a session, so volunteered rows keep coming (sessions are
 * staggered) without every turn bringing a new entity.
 */
function turnText(session: string, n: number, pages: ReturnType<typeof generatePages>): { role: 'user' | 'assistant'; text: string } {
  const topic = Math.floor(n / 2) % TOPICS_PER_SESSION;
  let h = 0;
  for (let c = 0; c < session.length; c++) h = (h * 31 + session.charCodeAt(c)) >>> 0;
  const p = pages[(h + topic * 104_729) % pages.length]!;
  const alias = (p.frontmatter.aliases as string[])[0]!;
  switch (n % 4) {
    case 0:
      return { role: 'user', text: `Can you pull up what we know about ${p.title} before the call?` };
    case 1:
      return { role: 'assistant', text: 'Sure, give me a second to check the notes from last week.' };
    case 2:
      return { role: 'user', text: `Also ${alias} mentioned a follow-up on the pricing thread.` };
    default:
      return { role: 'assistant', text: `Noted. ${p.title} asked for the deck on Monday.` };
  }
}

function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--kafka', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes(': ready (pid')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/**
 * The distributed mode end to end: turns published to Kafka at a steady rate → decided by two
 * `serve --kafka` processes of one group → volunteered events through the outbox relay and the
 * volunteered topic → rows committed in PostgreSQL, on a 20,000-page brain. Reports the turns a
 * second sustained and the delay from publish (the turn's event time) to the volunteered row's
 * commit. The stream's first `warmupSeconds` are a warm-up: every conversation is new at once
 * then (about three times the volunteered rows of the steady stream) and the members' code is
 * still being compiled. The delays are over the turns sent after it; the p99 over the whole
 * stream is reported beside them.
 */
export async function benchKafka(pageCount = 20_000, rate = 6_000, seconds = 30, sessions = 2_000, warmupSeconds = 5): Promise<Measurement[]> {
  const brokers = process.env.KAFKA_BROKERS?.trim();
  const baseUrl = process.env.DATABASE_URL?.trim();
  if (!brokers || !baseUrl) {
    process.stdout.write('kafka bench skipped: set KAFKA_BROKERS and DATABASE_URL (bash infra/kafka/start.sh prints the first)\n');
    return [];
  }
  const id = randomBytes(4).toString('hex');
  const settings = { brokers: brokers.split(','), topicPrefix: `bsbench.${id}.` };
  const database = `bs_bench_${id}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE "${database}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  const home = tempFolder('bs-bench-kafka-home-');
  const group = `${settings.topicPrefix}serve`;
  const serves: ChildProcess[] = [];
  const db = await openDistributedDb(url.toString(), { pool: 2, applicationName: 'brainstream-bench' });
  const kafkaAdmin = createKafkaClient(settings, { clientId: 'brainstream-bench' }).admin();
  try {
    await db.exec(COMMIT_CLOCK);
    await kafkaAdmin.connect();
    const pages = generatePages(pageCount);
    const turnCount = rate * (warmupSeconds + seconds);
    let published = 0;
    let firstPublish = 0;
    await withKafkaPublisher(settings, async (log) => {
      await log.append(pages.map((p) => makeEvent('page.upserted', { ...p, content_hash: p.slug, file_path: null, origin: 'import' }, { key: pageKey(p.source_id, p.slug) })));
      const env = { ...process.env, BRAINSTREAM_HOME: home, BRAINSTREAM_LOG_LEVEL: 'warn' };
      const args = ['--database', url.toString(), '--group', group, '--topic-prefix', settings.topicPrefix];
      serves.push(...(await Promise.all([startServe(args, env), startServe(args, env)])));
      // The brain is loaded (pages projected) before the measured stream starts.
      while ((await measureGroupLag(db, kafkaAdmin, settings.topicPrefix, group)).total > 0) await sleep(200);
      // A steady stream: every 50 ms, the turns due by then, stamped with the time they are sent.
      const tick = 50;
      firstPublish = Date.now();
      while (published < turnCount) {
        const due = Math.min(turnCount, Math.floor(((Date.now() - firstPublish) / 1000) * rate) + Math.floor(rate * tick / 1000));
        const at = new Date().toISOString();
        const chunk: Envelope[] = [];
        for (; published < due; published++) {
          const { session, turn } = sessionTurn(published, sessions);
          const { role, text } = turnText(session, turn, pages);
          chunk.push(makeEvent('turn.appended', { session_id: session, turn, role, text, source_id: 'default' }, { key: session, at }));
        }
        if (chunk.length > 0) await log.append(chunk);
        await sleep(Math.max(0, firstPublish + ((published + 1) / rate) * 1000 - Date.now()));
      }
    });
    const publishSeconds = (Date.now() - firstPublish) / 1000;
    let maxLag = 0;
    for (;;) {
      const lag = await measureGroupLag(db, kafkaAdmin, settings.topicPrefix, group);
      maxLag = Math.max(maxLag, lag.total);
      if (lag.total === 0) break;
      await sleep(100);
    }
    const caughtUp = Date.now();
    const rows = await db.query<{ delay_ms: number; last: number; measured: boolean }>(
      `SELECT extract(epoch FROM (c.committed_at - v.volunteered_at)) * 1000 AS delay_ms,
              extract(epoch FROM max(c.committed_at) OVER ()) * 1000 AS last,
              v.volunteered_at >= $1::timestamptz AS measured
         FROM context_volunteer_events v JOIN bench_commit_times c USING (id)`,
      [new Date(firstPublish + warmupSeconds * 1000).toISOString()],
    );
    const delays = rows.filter((r) => r.measured).map((r) => Number(r.delay_ms));
    if (delays.length === 0) throw new Error('kafka bench: nothing was volunteered after the warm-up');
    const allDelays = rows.map((r) => Number(r.delay_ms));
    // Where the delay goes: decided and staged (outbox row created) → published by the relay → committed by the projection.
    const stages = await db.query<{ decided: number; published: number; projected: number }>(
      `SELECT extract(epoch FROM (o.created_at - v.volunteered_at)) * 1000 AS decided,
              extract(epoch FROM (o.published_at - o.created_at)) * 1000 AS published,
              extract(epoch FROM (c.committed_at - o.published_at)) * 1000 AS projected
         FROM context_volunteer_events v JOIN bench_commit_times c USING (id) JOIN outbox o ON o.payload->>'id' = v.id
        WHERE v.volunteered_at >= $1::timestamptz`,
      [new Date(firstPublish + warmupSeconds * 1000).toISOString()],
    );
    const p99 = (k: 'decided' | 'published' | 'projected'): number => Math.round(percentile(stages.map((s) => Number(s[k])), 99));
    const p50 = (k: 'decided' | 'published' | 'projected'): number => Math.round(median(stages.map((s) => Number(s[k]))));
    // Done when the last row committed and the lag was seen at 0 (the later, within one poll).
    const endToEnd = (Math.max(Number(rows[0]!.last), caughtUp - 100) - firstPublish) / 1000;
    const throughput = turnCount / endToEnd;
    const brokerCount = (await kafkaAdmin.describeCluster()).brokers.length;
    return [
      {
        name: `kafka: turns → volunteered rows committed in PostgreSQL, ${pageCount.toLocaleString('en')}-page brain, 2 serve processes, ${brokerCount} broker${brokerCount === 1 ? '' : 's'}`,
        median: Math.round(throughput),
        unit: 'turns/s',
        runs: [Math.round(throughput)],
        extra: {
          offered_turns_per_s: rate,
          turns: turnCount,
          publish_s: Number(publishSeconds.toFixed(1)),
          end_to_end_s: Number(endToEnd.toFixed(1)),
          volunteered_rows: rows.length,
          warmup_s: warmupSeconds,
          p50_delay_ms: Math.round(median(delays)),
          p99_delay_ms: Math.round(percentile(delays, 99)),
          max_delay_ms: Math.round(Math.max(...delays)),
          p99_delay_with_warmup_ms: Math.round(percentile(allDelays, 99)),
          max_lag_seen: maxLag,
          stage_p50_ms: `decide ${p50('decided')} / relay ${p50('published')} / project ${p50('projected')}`,
          stage_p99_ms: `decide ${p99('decided')} / relay ${p99('published')} / project ${p99('projected')}`,
        },
      },
    ];
  } finally {
    await Promise.all(serves.map(stop));
    await kafkaAdmin.disconnect().catch(() => {});
    await db.close().catch(() => {});
    await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => {});
    await admin.end({ timeout: 5 });
    const cleanup = createKafkaClient(settings, { clientId: 'brainstream-bench-cleanup' }).admin();
    await cleanup.connect();
    const mine = (await cleanup.listTopics()).filter((t) => t.startsWith(settings.topicPrefix));
    if (mine.length > 0) await cleanup.deleteTopics({ topics: mine }).catch(() => {});
    await cleanup.deleteGroups([group, projectionsGroup(group)]).catch(() => {});
    await cleanup.disconnect();
    rmSync(home, { recursive: true, force: true });
  }
}
