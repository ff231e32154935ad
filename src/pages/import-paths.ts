import { UsageError } from '../errors.js';
import { slugLengthProblem } from '../domain/slug-length.js';

/**
 * Path rules of `brainstream import`: slug, title and type of a
 * page derived from its file's path relative to the imported folder.
 */

const MD_EXTENSION = /\.md$/i;

/** One path segment as a slug segment; "" when nothing usable is left. */
export function slugSegment(segment: string): string {
  return segment
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}._\s-]/gu, '')
    .replace(/\s+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * `People/Alice Example.md` → `people/alice-example`. Null when a segment ends up empty (or
 * as `.`/`..`): the file name cannot make a valid slug and the import counts it failed.
 * Only `/` separates folders (the scan writes every path that way): a backslash is a character
 * of the name, dropped like other punctuation, so `back\slash.md` never claims `back/slash`.
 */
export function slugFromRelativePath(relativePath: string): string | null {
  const segments = relativePath.replace(MD_EXTENSION, '').split('/').map(slugSegment);
  if (segments.some((s) => s === '' || s === '.' || s === '..')) return null;
  return segments.join('/');
}

/**
 * `alice-example.md` → `Alice Example` (`-`/`_` become spaces, each word capitalised). Control
 * characters become spaces too: a file name must not carry terminal escapes into a title.
 */
export function titleFromFileName(fileName: string): string {
  const base = fileName.split('/').pop() ?? '';
  return base
    .replace(MD_EXTENSION, '')
    .replace(/[-_\p{Cc}]/gu, ' ')
    .split(/\s+/u)
    .filter((word) => word !== '')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

const TYPE_BY_FOLDER: Readonly<Record<string, string>> = {
  people: 'person',
  person: 'person',
  companies: 'company',
  company: 'company',
  projects: 'project',
  project: 'project',
  notes: 'note',
  note: 'note',
  meetings: 'meeting',
  meeting: 'meeting',
  deals: 'deal',
  deal: 'deal',
};
const TYPE_FOLDER = /\/(people|person|companies|company|projects|project|notes|note|meetings|meeting|deals|deal)\//i;

/** Type from the first (leftmost) known folder name in `/` + path; else `concept`. */
export function typeFromPath(relativePath: string): string {
  const m = TYPE_FOLDER.exec('/' + relativePath);
  return m ? TYPE_BY_FOLDER[m[1].toLowerCase()] : 'concept';
}

/** A slug given on the command line is unusable: a usage error (exit 2). */
export class InvalidSlugError extends UsageError {
  readonly code = 'invalid_slug' as const;
  constructor(
    message: string,
    readonly slug: string,
  ) {
    super(message);
    this.name = 'InvalidSlugError';
  }
}

/** Why `slug` is unusable, or null when it is fine. */
export function slugProblem(slug: string): string | null {
  if (slug === '') return 'slug must not be empty';
  if (slug.startsWith('/')) return `slug "${slug}" must not start with /`;
  if (slug.includes('\\')) return `slug "${slug}" must not contain a backslash`;
  if (/\p{Cc}/u.test(slug)) return `slug ${JSON.stringify(slug)} must not contain control characters`;
  if (slug.split('/').includes('..')) return `slug "${slug}" must not contain a .. segment`;
  return slugLengthProblem(slug);
}

/** Lower-cases a slug and checks it; throws `InvalidSlugError` when it is unusable. */
export function validateSlug(slug: string): string {
  const lowered = slug.toLowerCase();
  const problem = slugProblem(lowered);
  if (problem !== null) throw new InvalidSlugError(problem, slug);
  return lowered;
}
