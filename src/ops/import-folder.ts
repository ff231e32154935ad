import type { Envelope } from '../domain/events.js';
import type { Brain } from '../brain/brain.js';
import { logger } from '../logger.js';
import { pageFileOutcome, planFolder, sortFailures, type ImportFailure } from './folder-page-events.js';

export type { ImportFailure } from './folder-page-events.js';

export interface ImportSummary {
  source_id: string;
  added: number;
  updated: number;
  unchanged: number;
  failed: ImportFailure[];
}

export interface ImportOptions {
  /** Events are appended (and projected) in batches of this many pages. */
  batchSize?: number;
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
  const known = await knownHashes(brain, sourceId);
  const batchSize = options.batchSize ?? 1000;
  let pending: Envelope[] = [];
  let done = 0;
  const total = plan.slugs.length;
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
    if (pending.length >= batchSize) {
      await brain.commit(pending);
      logger.debug({ op: 'import', source: sourceId, committed: pending.length, done, total }, 'import batch committed');
      pending = [];
      options.onProgress?.(done, total);
    }
  }
  if (pending.length > 0) await brain.commit(pending);
  options.onProgress?.(total, total);
  sortFailures(summary.failed);
  return summary;
}

/** Content hashes of the live pages of a source: an identical file writes nothing. */
async function knownHashes(brain: Brain, sourceId: string): Promise<Map<string, string>> {
  const rows = await brain.db.query<{ slug: string; content_hash: string }>(
    'SELECT slug, content_hash FROM pages WHERE source_id = $1 AND NOT deleted',
    [sourceId],
  );
  return new Map(rows.map((r) => [r.slug, r.content_hash]));
}
