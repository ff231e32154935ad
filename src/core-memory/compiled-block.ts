import { BrainstreamError } from '../errors.js';

/** Markers of the block `compile-context` manages inside an instruction file. */
const COMPILED_BEGIN_PREFIX = '<!-- brainstream:compiled-context:begin';
const COMPILED_END = '<!-- brainstream:compiled-context:end -->';
const BEGIN_LINE = /<!-- brainstream:compiled-context:begin core=([0-9a-f]*) -->/;

const compiledBegin = (revision: string): string => `${COMPILED_BEGIN_PREFIX} core=${revision} -->`;

export interface ManagedBlockSpan {
  /** Index of the begin marker. */
  start: number;
  /** Index just past the end marker. */
  end: number;
  /** The `core=` revision the block carries. */
  revision: string;
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

/**
 * The managed block of `text`, null when there is none. Damaged markers (a begin without its
 * end, an end without a begin, more than one block, an unreadable begin line) are refused
 * rather than guessed at: a wrong guess would delete the owner's text.
 */
function findManagedBlock(text: string, path: string): ManagedBlockSpan | null {
  const begins = count(text, COMPILED_BEGIN_PREFIX);
  const ends = count(text, COMPILED_END);
  if (begins === 0 && ends === 0) return null;
  const start = text.indexOf(COMPILED_BEGIN_PREFIX);
  const endAt = text.indexOf(COMPILED_END);
  const begin = BEGIN_LINE.exec(text.slice(start));
  if (begins !== 1 || ends !== 1 || endAt < start || !begin || begin.index !== 0) {
    throw new BrainstreamError(
      'compiled_context_damaged',
      `${path} has damaged brainstream compiled-context markers (${begins} begin, ${ends} end); fix or remove them by hand, then re-run`,
      { path },
    );
  }
  return { start, end: endAt + COMPILED_END.length, revision: begin[1] };
}

/** The managed block: markers around the core block (no text between when core is empty). */
export const managedBlock = (revision: string, coreText: string): string =>
  [compiledBegin(revision), ...(coreText === '' ? [] : [coreText]), COMPILED_END].join('\n');

/**
 * `text` with the managed block replaced in place, or appended after a blank line. Content
 * outside the markers is kept byte for byte; the same inputs always give the same bytes.
 */
export function withManagedBlock(text: string, path: string, block: string): string {
  const span = findManagedBlock(text, path);
  if (span) return text.slice(0, span.start) + block + text.slice(span.end);
  const body = text.replace(/\n+$/, '');
  return body === '' ? `${block}\n` : `${body}\n\n${block}\n`;
}

/** `text` without the managed block (and the blank line that separated it); unchanged without one. */
export function withoutManagedBlock(text: string, path: string): string {
  const span = findManagedBlock(text, path);
  if (!span) return text;
  const before = text.slice(0, span.start).replace(/\n+$/, '');
  const after = text.slice(span.end).replace(/^\n+/, '');
  if (before === '') return after;
  return after === '' ? `${before}\n` : `${before}\n\n${after}`;
}

/** The `core=` revision a file's managed block carries, or null (no block, or damaged). */
export function compiledRevisionOf(text: string): string | null {
  try {
    return findManagedBlock(text, '')?.revision ?? null;
  } catch {
    return null;
  }
}
