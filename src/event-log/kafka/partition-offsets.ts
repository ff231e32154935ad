import type { Db } from '../../db/db.js';

/** One partition's position for one consumer group, stored in `kafka_offsets`. */
export interface PartitionKey {
  group: string;
  /** The Kafka topic name (with its prefix). */
  topic: string;
  partition: number;
}

/** The stored position moved under a transaction that held its lock: a bug, never retried silently. */
export class OffsetConflictError extends Error {
  constructor(key: PartitionKey, expected: number) {
    super(`kafka_offsets of ${key.group} ${key.topic}[${key.partition}] is no longer ${expected}`);
    this.name = 'OffsetConflictError';
  }
}

const SELECT_LOCKED = 'SELECT next_offset FROM kafka_offsets WHERE group_id = $1 AND topic = $2 AND partition = $3 FOR UPDATE';

/**
 * Locks the partition's offset row until the transaction ends and returns the next offset to
 * apply; a missing row is created at `initial`. Two members that both believe they own the
 * partition (one lost it in a rebalance) serialise here: the second sees what the first applied.
 */
export async function lockPartitionOffset(tx: Db, key: PartitionKey, initial: number): Promise<{ next: number; created: boolean }> {
  const params = [key.group, key.topic, key.partition];
  const [row] = await tx.query<{ next_offset: number }>(SELECT_LOCKED, params);
  if (row) return { next: Number(row.next_offset), created: false };
  const inserted = await tx.query<{ next_offset: number }>(
    `INSERT INTO kafka_offsets (group_id, topic, partition, next_offset) VALUES ($1, $2, $3, $4)
     ON CONFLICT (group_id, topic, partition) DO NOTHING RETURNING next_offset`,
    [...params, initial],
  );
  if (inserted.length > 0) return { next: initial, created: true };
  // Another member created it meanwhile (its insert committed before ours gave up): lock that one.
  const [again] = await tx.query<{ next_offset: number }>(SELECT_LOCKED, params);
  return { next: Number(again!.next_offset), created: false };
}

/** Moves the position from `expected` to `next` (compare-and-set, under the lock taken above). */
export async function advancePartitionOffset(tx: Db, key: PartitionKey, expected: number, next: number): Promise<void> {
  const rows = await tx.query(
    `UPDATE kafka_offsets SET next_offset = $5, updated_at = now()
      WHERE group_id = $1 AND topic = $2 AND partition = $3 AND next_offset = $4 RETURNING next_offset`,
    [key.group, key.topic, key.partition, expected, next],
  );
  if (rows.length !== 1) throw new OffsetConflictError(key, expected);
}

/** The stored next offset of every partition the groups have applied a batch of, keyed `group \0 topic \0 partition`. */
export async function storedGroupOffsets(tx: Db, groups: readonly string[]): Promise<Map<string, number>> {
  const rows = await tx.query<{ group_id: string; topic: string; partition: number; next_offset: number }>(
    'SELECT group_id, topic, partition, next_offset FROM kafka_offsets WHERE group_id = ANY($1::text[])',
    [groups],
  );
  return new Map(rows.map((r) => [offsetKey(r.group_id, r.topic, r.partition), Number(r.next_offset)]));
}

/** The key of one partition of one group in `storedGroupOffsets`. */
export const offsetKey = (group: string, topic: string, partition: number): string => `${group}\u0000${topic}\u0000${partition}`;
