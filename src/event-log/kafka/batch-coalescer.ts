import type { Db } from '../../db/db.js';
import type { Topic } from '../../domain/events.js';
import { applyPartitionBatches, type BatchOutcome, type BatchWork, type PartitionBatch, type PartitionCursor } from './partition-batch.js';

interface Pending {
  batch: PartitionBatch;
  cursor: PartitionCursor;
  resolve(outcome: BatchOutcome): void;
  reject(err: unknown): void;
}

/**
 * Group commit for stateless consumers: kafkajs hands the partition batches of one fetch to
 * `eachBatch` all at once (with enough concurrency); the batches submitted in the same turn of
 * the event loop are applied in one transaction, and each submitter gets its own outcome. A
 * failed transaction fails them all; each retries on its own and they coalesce again.
 */
export class BatchCoalescer {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly work: (topic: Topic) => BatchWork,
  ) {}

  submit(batch: PartitionBatch, cursor: PartitionCursor): Promise<BatchOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ batch, cursor, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const items = this.pending;
    this.pending = [];
    this.scheduled = false;
    try {
      const outcomes = await this.db.transaction((tx) => applyPartitionBatches(tx, items, this.work));
      items.forEach((item, i) => item.resolve(outcomes[i]!));
    } catch (err) {
      for (const item of items) item.reject(err);
    }
  }
}
