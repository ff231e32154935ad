import type { Envelope } from '../domain/events.js';
import type { Brain } from '../brain/brain.js';
import { logger } from '../logger.js';
import { pageFileOutcome, planFolder, sortFailures, type ImportFailure, type KnownPage } from './folder-page-events.js';
import { importedPageHashes } from '../../projections/pages-queries.js';

export type { ImportFailure } from './folder-page-events.js';

export interface ImportSummary {
  source_id: string;
  added: number;
  updated: number;
  unchanged: number;
  failed: ImportFailure[];
}

export interface ImportOptions {
  /** Events are appended (and projected) in batches of at most this many pages… */
  batchSize?: number;
  /** …and of at most about this many bytes of markdown, so large files never make one huge insert. */
  batchBytes?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * The owner's sync path: every markdown file under `root` becomes a page of `sourceId`.
 * Unchanged files write nothing; bad files are reported and skipped while the rest import.
 * Each batch commits atomically, so a crash leaves whole pages only and a re-import completes it.
 */
export async function importFolder(brain: Brain, root: string, sourceId: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const plan = planFolder(root);
  const summary: ImportSummary = { source_id: sourceId, added: 0, updated: 0, unchanged: 0, failed: plan.failed };
  const known = await knownPages(brain, sourceId);
  const batchSize = options.batchSize ?? 1000;
  const batchBytes = options.batchBytes ?? 32 * 1024 * 1024;
  let pending: Envelope[] = [];
  let pendingBytes = 0;
  let done = 0;
  const total = plan.slugs.length;
  const flush = async (): Promise<void> => {
    logger.debug({ op: 'import', source: sourceId, pages: pending.length, done, total }, 'import batch writing');
    await brain.commit(pending);
    logger.debug({ op: 'import', source: sourceId, committed: pending.length, done, total }, 'import batch committed');
    pending = [];
    pendingBytes = 0;
  };
  for (const entry of plan.slugs) {
    done++;
    const outcome = pageFileOutcome(entry, sourceId, known.get(entry.slug));
    if (outcome.kind === 'failed') {
      summary.failed.push(...outcome.failures);
      continue;
    }
    if (outcome.kind === 'unchanged') {
      summary.unchanged++;
      continue;
    }
    if (outcome.isNew) summary.added++;
    else summary.updated++;
    pending.push(outcome.event);
    pendingBytes += outcome.bytes;
    if (pending.length >= batchSize || pendingBytes >= batchBytes) {
      await flush();
      options.onProgress?.(done, total);
    }
  }
  if (pending.length > 0) await flush();
  options.onProgress?.(total, total);
  sortFailures(summary.failed);
  return summary;
}

/**
 * What the source holds per slug, deleted pages included: `content_hash` is the hash of the file
 * bytes last imported (page writes and deletes keep it), so a file unchanged since its last
 * import writes nothing — it neither undoes a `page put` edit nor brings back a deleted page.
 */
async function knownPages(brain: Brain, sourceId: string): Promise<Map<string, KnownPage>> {
  const rows = await importedPageHashes(brain.db, sourceId);
  return new Map(rows.map((r) => [r.slug, { importedHash: r.content_hash, live: !r.deleted }]));
}
