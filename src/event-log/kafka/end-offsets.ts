import type { Admin } from 'kafkajs';

/** One partition's bounds: `low` = earliest offset still held, `high` = the next offset to be written. */
export interface PartitionBounds {
  partition: number;
  low: number;
  high: number;
}

/** The bounds of every partition of `topic`, in partition order. */
export async function partitionBounds(admin: Admin, topic: string): Promise<PartitionBounds[]> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets
    .map((o) => ({ partition: o.partition, low: Number(o.low), high: Number(o.high) }))
    .sort((a, b) => a.partition - b.partition);
}
