// A three-broker cluster started by infra/kafka/start.sh --brokers 3, and the few moves the
// failover tests make on it: find a partition leader, SIGKILL a node, stop or restart one, and
// wait until every replica is back in sync.
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { WAIT_BUDGET_MS, waitFor } from '../kafka/support/wait-for.js';

const run = promisify(execFile);
const KAFKA_SCRIPTS = resolve(import.meta.dirname, '../../../infra/kafka');
export const NODES = [1, 2, 3] as const;

export interface Cluster {
  brokers: string[];
  /** The cluster's data root (BRAINSTREAM_KAFKA_DATA of its start.sh). */
  data: string;
}

function isCi(): boolean {
  const ci = process.env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * The cluster named by KAFKA_CLUSTER_BROKERS and KAFKA_CLUSTER_DATA, or undefined (after a warning)
 * outside CI when they are not set. Under CI their absence is an error: the file must fail.
 */
export function clusterOrSkip(): Cluster | undefined {
  const brokers = (process.env.KAFKA_CLUSTER_BROKERS ?? '').split(',').map((b) => b.trim()).filter(Boolean);
  const data = process.env.KAFKA_CLUSTER_DATA?.trim();
  if (brokers.length === 3 && data) return { brokers, data };
  const how =
    'start one with `BRAINSTREAM_KAFKA_DATA=/tmp/bs-cluster bash infra/kafka/start.sh --brokers 3 --port 19092` and set ' +
    'KAFKA_CLUSTER_BROKERS=<the three host:port it prints> KAFKA_CLUSTER_DATA=/tmp/bs-cluster';
  if (isCi()) throw new Error(`KAFKA_CLUSTER_BROKERS (three brokers) and KAFKA_CLUSTER_DATA must be set under CI; ${how}`);
  console.warn(`[broker failover] SKIPPING: no three-broker cluster; ${how}`);
  return undefined;
}

const script = (cluster: Cluster, name: 'start' | 'stop' | 'restart', args: string[]) =>
  run('bash', [join(KAFKA_SCRIPTS, `${name}.sh`), ...args], {
    env: { ...process.env, BRAINSTREAM_KAFKA_DATA: cluster.data },
    timeout: WAIT_BUDGET_MS,
  });

const basePort = (cluster: Cluster) => cluster.brokers[0]!.split(':')[1]!;

/** Starts every node that is down (start.sh is idempotent) and waits for all to answer. */
export const startAll = (cluster: Cluster) => script(cluster, 'start', ['--brokers', '3', '--port', basePort(cluster)]);
/** Controlled shutdown of one node (its leaderships move to the others first). */
export const stopNode = (cluster: Cluster, node: number) => script(cluster, 'stop', ['--broker', String(node)]);
/** kill -9 of one node: no controlled shutdown at all. Returns once the process is gone. */
export const killNode = (cluster: Cluster, node: number) => script(cluster, 'stop', ['--broker', String(node), '--kill']);
/** Controlled restart of one node; returns once the cluster answers with all three again. */
export const restartNode = (cluster: Cluster, node: number) => script(cluster, 'restart', ['--broker', String(node)]);

export async function withAdmin<T>(cluster: Cluster, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = new Kafka({ clientId: 'test-failover', brokers: cluster.brokers, logLevel: logLevel.NOTHING, retry: { retries: 8 } }).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** The node that leads the most partitions of `topics` (node ids are start.sh's 1, 2, 3). */
export async function busiestLeader(cluster: Cluster, topics: string[]): Promise<number> {
  const { topics: meta } = await withAdmin(cluster, (admin) => admin.fetchTopicMetadata({ topics }));
  const counts = new Map<number, number>();
  for (const t of meta) for (const p of t.partitions) counts.set(p.leader, (counts.get(p.leader) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/** Waits until every partition of `topics` has a leader and in-sync replicas that `ok` accepts. */
export async function waitForIsr(cluster: Cluster, topics: string[], what: string, ok: (isr: number[]) => boolean): Promise<void> {
  await waitFor(`${what} (${topics.join(', ')})`, async () => {
    try {
      const { topics: meta } = await withAdmin(cluster, (admin) => admin.fetchTopicMetadata({ topics }));
      return meta.every((t) => t.partitions.every((p) => p.leader >= 0 && ok(p.isr)));
    } catch {
      return false; // a node may still be joining
    }
  });
}

/** Waits until every partition of `topics` has a leader and all three replicas in sync. */
export const waitForFullIsr = (cluster: Cluster, topics: string[]) =>
  waitForIsr(cluster, topics, 'every replica back in sync', (isr) => isr.length === 3);
