import { ZodError } from 'zod';
import { makeEvent, pageKey, type Envelope } from '../domain/events.js';
import { describeZodIssues } from '../domain/zod-issues.js';
import { slugFromRelativePath } from '../pages/import-paths.js';
import { resolvePage } from '../pages/resolve-page.js';
import { slugLengthProblem } from '../domain/slug-length.js';
import { unstorablePageProblem } from '../pages/storable-text.js';
import { readPageFile } from './read-page-file.js';
import { scanMarkdownFolder } from './scan-markdown-folder.js';

export interface ImportFailure {
  /** The file's path relative to the folder, control characters escaped (`\x1b`). */
  file: string;
  reason: string;
}

/** A file name as printed: its control characters escaped, so a name cannot drive the terminal. */
const shownPath = (relative: string): string =>
  relative.replace(/\p{Cc}/gu, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** The files of a folder that claim one slug (more than one is a collision). */
export interface SlugFiles {
  slug: string;
  files: { relative: string; path: string }[];
}

export interface FolderPlan {
  /** Slugs in the order their first file was found (a stable, sorted walk). */
  slugs: SlugFiles[];
  /** Files whose name cannot make a slug, and sub-folders that cannot be listed. */
  failed: ImportFailure[];
}

/** Every markdown file under `root`, grouped by the slug its path makes. Throws when `root` is not a readable folder. */
export function planFolder(root: string): FolderPlan {
  const scan = scanMarkdownFolder(root);
  const failed: ImportFailure[] = scan.unreadable.map((d) => ({ file: shownPath(d.relative), reason: d.reason }));
  const bySlug = new Map<string, SlugFiles>();
  for (const f of scan.files) {
    const slug = slugFromRelativePath(f.relative);
    if (slug === null) {
      failed.push({ file: shownPath(f.relative), reason: 'the file name cannot make a valid slug' });
      continue;
    }
    const tooLong = slugLengthProblem(slug);
    if (tooLong !== null) {
      failed.push({ file: shownPath(f.relative), reason: tooLong });
      continue;
    }
    const entry = bySlug.get(slug) ?? { slug, files: [] };
    entry.files.push(f);
    bySlug.set(slug, entry);
  }
  return { slugs: [...bySlug.values()], failed };
}

/** What the brain holds of a slug: the hash of the file bytes it last imported, and whether the page is live. */
export interface KnownPage {
  importedHash: string;
  live: boolean;
}

export type PageFileOutcome =
  | { kind: 'failed'; failures: ImportFailure[] }
  | { kind: 'unchanged' }
  | { kind: 'page'; event: Envelope<'page.upserted'>; isNew: boolean; bytes: number };

/**
 * One slug of a folder as a `page.upserted` event of `sourceId`, or why not: colliding files and
 * unreadable, unparsable or unstorable files fail; a file whose bytes hash to what the brain last
 * imported for the slug is unchanged (even when the page was edited or deleted since). Never
 * throws: whatever goes wrong with one file is that file's failure.
 */
export function pageFileOutcome(entry: SlugFiles, sourceId: string, known?: KnownPage): PageFileOutcome {
  const { slug, files } = entry;
  if (files.length > 1) {
    const failures = files.map((f) => ({
      file: shownPath(f.relative),
      reason: `slug "${slug}" collides with ${files.filter((o) => o !== f).map((o) => shownPath(o.relative)).join(', ')}`,
    }));
    return { kind: 'failed', failures };
  }
  const file = files[0]!;
  // One stderr line per failed file: a multi-line message is folded onto one line.
  const fail = (reason: string): PageFileOutcome => ({ kind: 'failed', failures: [{ file: shownPath(file.relative), reason: reason.replace(/\s*\n\s*/g, ' ') }] });
  try {
    const read = readPageFile(file.path);
    if (!read.ok) return fail(read.reason);
    if (known !== undefined && known.importedHash === read.hash) return { kind: 'unchanged' };
    const page = resolvePage(read.text, { slugHint: slug, fileName: file.relative.split('/').pop()!, pathForType: file.relative });
    const unstorable = unstorablePageProblem(page);
    if (unstorable !== null) return fail(unstorable);
    const event = makeEvent(
      'page.upserted',
      { source_id: sourceId, slug, ...page, content_hash: read.hash, file_path: file.path, origin: 'import' },
      { key: pageKey(sourceId, slug) },
    );
    return { kind: 'page', event, isNew: known?.live !== true, bytes: read.bytes };
  } catch (err) {
    return fail(err instanceof ZodError ? describeZodIssues(err) : err instanceof Error ? err.message : String(err));
  }
}

/** Failures in file order, as the import and publish summaries list them. */
export const sortFailures = (failed: ImportFailure[]): ImportFailure[] =>
  failed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
