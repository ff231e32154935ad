import { makeEvent, pageKey, type Envelope } from '../domain/events.js';
import type { Brain } from '../brain/brain.js';
import { logger } from '../logger.js';
import { slugFromRelativePath } from '../pages/import-paths.js';
import { resolvePage } from '../pages/resolve-page.js';
import { readPageFile } from './read-page-file.js';
import { scanMarkdownFolder } from './scan-markdown-folder.js';

export interface ImportFailure {
  file: string;
  reason: string;
}

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
  const files = scanMarkdownFolder(root);
  const summary: ImportSummary = { source_id: sourceId, added: 0, updated: 0, unchanged: 0, failed: [] };
  const bySlug = new Map<string, string[]>();
  for (const f of files) {
    const slug = slugFromRelativePath(f.relative);
    if (slug === null) {
      summary.failed.push({ file: f.relative, reason: 'the file name cannot make a valid slug' });
      continue;
    }
    bySlug.set(slug, [...(bySlug.get(slug) ?? []), f.relative]);
  }
  const pathOf = new Map(files.map((f) => [f.relative, f.path]));
  const known = await knownHashes(brain, sourceId);
  const batchSize = options.batchSize ?? 1000;
  let pending: Envelope[] = [];
  let done = 0;
  const total = bySlug.size;
  for (const [slug, rels] of bySlug) {
    done++;
    if (rels.length > 1) {
      for (const rel of rels) {
        const others = rels.filter((r) => r !== rel).join(', ');
        summary.failed.push({ file: rel, reason: `slug "${slug}" collides with ${others}` });
      }
      continue;
    }
    const rel = rels[0]!;
    const read = readPageFile(pathOf.get(rel)!);
    if (!read.ok) {
      summary.failed.push({ file: rel, reason: read.reason });
      continue;
    }
    const previous = known.get(slug);
    if (previous !== undefined && previous === read.hash) {
      summary.unchanged++;
      continue;
    }
    let page;
    try {
      page = resolvePage(read.text, { slugHint: slug, fileName: rel.split('/').pop()!, pathForType: rel });
    } catch (err) {
      summary.failed.push({ file: rel, reason: (err as Error).message });
      continue;
    }
    if (previous === undefined) summary.added++;
    else summary.updated++;
    pending.push(
      makeEvent(
        'page.upserted',
        { source_id: sourceId, slug, ...page, content_hash: read.hash, file_path: pathOf.get(rel)!, origin: 'import' },
        { key: pageKey(sourceId, slug) },
      ),
    );
    if (pending.length >= batchSize) {
      await brain.commit(pending);
      logger.debug({ op: 'import', source: sourceId, committed: pending.length, done, total }, 'import batch committed');
      pending = [];
      options.onProgress?.(done, total);
    }
  }
  if (pending.length > 0) await brain.commit(pending);
  options.onProgress?.(total, total);
  summary.failed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
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
