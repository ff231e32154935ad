import type { Admin } from 'kafkajs';
import { readOneSnapshot, type Db } from '../db/db.js';
import type { Topic } from '../domain/events.js';
import { partitionBounds } from '../event-log/kafka/end-offsets.js';
import { kafkaTopicName } from '../event-log/kafka/kafka-topics.js';
import { pendingOutboxRows } from '../event-log/kafka/outbox-appender.js';
import { offsetKey, storedGroupOffsets } from '../event-log/kafka/partition-offsets.js';
import { PROCESSOR_TOPICS, PROJECTION_TOPICS, projectionsGroup } from './serve-work.js';

export interface PartitionLag {
  /** The consumer group that reads the partition: `G` (processors) or `G.projections`. */
  group: string;
  topic: string;
  partition: number;
  /** The group's next offset in `kafka_offsets`; null before its first batch there. */
  committed: number | null;
  /** The partition's end (high watermark). */
  end: number;
  lag: number;
}

export interface GroupLag {
  group: string;
  partitions: PartitionLag[];
  /** Events staged by committed batches and not yet on their topic. */
  outbox_pending: number;
  /** Sum of every lag plus the outbox: 0 means everything published so far is processed. */
  total: number;
}

/** The consumer groups of a serve group and the streams each reads. */
function serveGroups(group: string): { group: string; topics: readonly Topic[] }[] {
  return [
    { group, topics: PROCESSOR_TOPICS },
    { group: projectionsGroup(group), topics: PROJECTION_TOPICS },
  ];
}

/**
 * How far a serve group is behind, per topic-partition. The database is read first (offsets and
 * the outbox in one snapshot), Kafka's end offsets after: whatever was in flight at the snapshot
 * shows up as lag or as pending outbox rows, so `total` is 0 only when all work was done.
 */
export async function measureGroupLag(db: Db, admin: Admin, topicPrefix: string, group: string): Promise<GroupLag> {
  const groups = serveGroups(group);
  const { offsets, pending } = await db.transaction(async (tx) => {
    await readOneSnapshot(tx);
    return { offsets: await storedGroupOffsets(tx, groups.map((g) => g.group)), pending: await pendingOutboxRows(tx) };
  });
  const partitions: PartitionLag[] = [];
  for (const g of groups) {
    for (const topic of g.topics) {
      const name = kafkaTopicName(topicPrefix, topic);
      for (const b of await partitionBounds(admin, name)) {
        const committed = offsets.get(offsetKey(g.group, name, b.partition)) ?? null;
        const lag = Math.max(0, b.high - Math.max(committed ?? b.low, b.low));
        partitions.push({ group: g.group, topic: name, partition: b.partition, committed, end: b.high, lag });
      }
    }
  }
  return { group, partitions, outbox_pending: pending, total: partitions.reduce((s, p) => s + p.lag, 0) + pending };
}
