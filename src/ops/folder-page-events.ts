import { makeEvent, pageKey, type Envelope } from '../domain/events.js';
import { slugFromRelativePath } from '../pages/import-paths.js';
import { resolvePage } from '../pages/resolve-page.js';
import { readPageFile } from './read-page-file.js';
import { scanMarkdownFolder } from './scan-markdown-folder.js';

export interface ImportFailure {
  file: string;
  reason: string;
}

/** The files of a folder that claim one slug (more than one is a collision). */
export interface SlugFiles {
  slug: string;
  files: { relative: string; path: string }[];
}

export interface FolderPlan {
  /** Slugs in the order their first file was found (a stable, sorted walk). */
  slugs: SlugFiles[];
  /** Files whose name cannot make a slug. */
  failed: ImportFailure[];
}

/** Every markdown file under `root`, grouped by the slug its path makes. Throws when `root` is not a folder. */
export function planFolder(root: string): FolderPlan {
  const failed: ImportFailure[] = [];
  const bySlug = new Map<string, SlugFiles>();
  for (const f of scanMarkdownFolder(root)) {
    const slug = slugFromRelativePath(f.relative);
    if (slug === null) {
      failed.push({ file: f.relative, reason: 'the file name cannot make a valid slug' });
      continue;
    }
    const entry = bySlug.get(slug) ?? { slug, files: [] };
    entry.files.push(f);
    bySlug.set(slug, entry);
  }
  return { slugs: [...bySlug.values()], failed };
}

export type PageFileOutcome =
  | { kind: 'failed'; failures: ImportFailure[] }
  | { kind: 'unchanged' }
  | { kind: 'page'; event: Envelope<'page.upserted'>; isNew: boolean };

/**
 * One slug of a folder as a `page.upserted` event of `sourceId`, or why not: colliding files and
 * unreadable or unparsable files fail; a file whose hash equals `knownHash` (the live page's) is unchanged.
 */
export function pageFileOutcome(entry: SlugFiles, sourceId: string, knownHash?: string): PageFileOutcome {
  const { slug, files } = entry;
  if (files.length > 1) {
    const failures = files.map((f) => ({
      file: f.relative,
      reason: `slug "${slug}" collides with ${files.filter((o) => o !== f).map((o) => o.relative).join(', ')}`,
    }));
    return { kind: 'failed', failures };
  }
  const file = files[0]!;
  const read = readPageFile(file.path);
  if (!read.ok) return { kind: 'failed', failures: [{ file: file.relative, reason: read.reason }] };
  if (knownHash !== undefined && knownHash === read.hash) return { kind: 'unchanged' };
  let page;
  try {
    page = resolvePage(read.text, { slugHint: slug, fileName: file.relative.split('/').pop()!, pathForType: file.relative });
  } catch (err) {
    return { kind: 'failed', failures: [{ file: file.relative, reason: (err as Error).message }] };
  }
  const event = makeEvent(
    'page.upserted',
    { source_id: sourceId, slug, ...page, content_hash: read.hash, file_path: file.path, origin: 'import' },
    { key: pageKey(sourceId, slug) },
  );
  return { kind: 'page', event, isNew: knownHash === undefined };
}

/** Failures in file order, as the import and publish summaries list them. */
export const sortFailures = (failed: ImportFailure[]): ImportFailure[] =>
  failed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
