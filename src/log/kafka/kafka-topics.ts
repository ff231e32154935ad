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
 * Creates the topics of a deployment that do not exist yet, with their partitions and retention.
 * Existing topics are left as they are. Safe when several processes start at once.
 */
export async function ensureTopics(admin: Admin, prefix: string): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing: ITopicConfig[] = TOPICS.filter((t) => !existing.has(kafkaTopicName(prefix, t))).map((t) => ({
    topic: kafkaTopicName(prefix, t),
    numPartitions: TOPIC_SPECS[t].partitions,
    configEntries: Object.entries(TOPIC_SPECS[t].configs).map(([name, value]) => ({ name, value })),
  }));
  if (missing.length === 0) return [];
  try {
    await admin.createTopics({ topics: missing, waitForLeaders: true });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  return missing.map((m) => m.topic);
}
