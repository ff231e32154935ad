import type { Admin, ITopicConfig } from 'kafkajs';
import { TOPICS, type Topic } from '../../domain/events.js';

const DAY_MS = 86_400_000;

/** How one stream is laid out in Kafka; docs/operations.md explains each choice. */
export interface TopicSpec {
  partitions: number;
  configs: Record<string, string>;
}

/**
 * Partitions cap how many processors of one group share the work (a partition is read by one
 * member at a time). Turns and retrievals stay 90 days so a replay with a new group has them;
 * pages stay forever because every processor rebuilds its page index from the whole topic.
 */
export const TOPIC_SPECS: Readonly<Record<Topic, TopicSpec>> = {
  turns: { partitions: 8, configs: { 'cleanup.policy': 'delete', 'retention.ms': String(90 * DAY_MS) } },
  pages: { partitions: 4, configs: { 'cleanup.policy': 'delete', 'retention.ms': '-1' } },
  retrievals: { partitions: 4, configs: { 'cleanup.policy': 'delete', 'retention.ms': String(90 * DAY_MS) } },
  volunteered: { partitions: 4, configs: { 'cleanup.policy': 'delete', 'retention.ms': String(90 * DAY_MS) } },
  core: { partitions: 1, configs: { 'cleanup.policy': 'delete', 'retention.ms': '-1' } },
  dlq: { partitions: 1, configs: { 'cleanup.policy': 'delete', 'retention.ms': String(90 * DAY_MS) } },
};

export const kafkaTopicName = (prefix: string, topic: Topic): string => `${prefix}${topic}`;

/** The stream a Kafka topic name of this prefix carries, or null when it is not one of ours. */
export function topicOfKafkaName(prefix: string, name: string): Topic | null {
  if (!name.startsWith(prefix)) return null;
  const rest = name.slice(prefix.length);
  return (TOPICS as readonly string[]).includes(rest) ? (rest as Topic) : null;
}

const isAlreadyExists = (err: unknown): boolean =>
  JSON.stringify((err as { errors?: unknown })?.errors ?? '').includes('TOPIC_ALREADY_EXISTS') ||
  (err as { type?: string })?.type === 'TOPIC_ALREADY_EXISTS';

/**
 * Replication for a cluster of `brokers`: three copies once there are three brokers, of which
 * two must have a write before it is acknowledged (producers send with acks=all), so one broker
 * may be down without stopping writes and no acknowledged write lives on one disk only. A single
 * broker gets 1 and 1.
 */
export function replicationFor(brokers: number): { replicationFactor: number; minInsyncReplicas: number } {
  const replicationFactor = Math.max(1, Math.min(3, brokers));
  return { replicationFactor, minInsyncReplicas: replicationFactor >= 3 ? 2 : 1 };
}

/**
 * Creates the topics of a deployment that do not exist yet, with their partitions, retention and
 * replication (replicationFor the brokers the cluster has now). Existing topics are left as they
 * are. Safe when several processes start at once.
 */
export async function ensureTopics(admin: Admin, prefix: string): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const wanted = TOPICS.filter((t) => !existing.has(kafkaTopicName(prefix, t)));
  if (wanted.length === 0) return [];
  const { replicationFactor, minInsyncReplicas } = replicationFor((await admin.describeCluster()).brokers.length);
  const missing: ITopicConfig[] = wanted.map((t) => ({
    topic: kafkaTopicName(prefix, t),
    numPartitions: TOPIC_SPECS[t].partitions,
    replicationFactor,
    configEntries: Object.entries({ ...TOPIC_SPECS[t].configs, 'min.insync.replicas': String(minInsyncReplicas) }).map(([name, value]) => ({ name, value })),
  }));
  try {
    await admin.createTopics({ topics: missing, waitForLeaders: false });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  await waitForLeaders(admin, missing.map((m) => m.topic));
  return missing.map((m) => m.topic);
}

/** How long new topics may take to get a leader for every partition before that is an error. */
const LEADERS_WITHIN_MS = 120_000;

/** Errors a broker gives about a topic it created a moment ago and has not spread to every broker yet. */
const NOT_YET = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE']);

/**
 * Waits until every partition of the topics has a leader. kafkajs' own wait gives up at the first
 * "this server does not host this topic-partition", which a busy broker answers for a while
 * after creating a topic; that answer is only "not yet" here.
 */
export async function waitForLeaders(admin: Admin, topics: readonly string[]): Promise<void> {
  const deadline = Date.now() + LEADERS_WITHIN_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics: [...topics] });
      if (meta.length === topics.length && meta.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) return;
    } catch (err) {
      if (!NOT_YET.has((err as { type?: string }).type ?? '')) throw err;
    }
    if (Date.now() > deadline) throw new Error(`kafka topics ${topics.join(', ')} have no leader for every partition after ${LEADERS_WITHIN_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, Math.min(1000, 50 * attempt)));
  }
}
