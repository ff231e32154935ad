import { stripAllFences } from '../pages/fences.js';
import type { Page } from '../pages/page.js';

const SYNOPSIS_MAX = 160;

const WHITESPACE_RUN = /\s+/gu;
const DASH_BLOCK = /^---[\s\S]*?---\s*/mu;
const SENTENCE_END = /(?<=[.!?])\s/u;

const collapse = (s: string): string => s.replace(WHITESPACE_RUN, ' ').trim();

/** Longer than 160 → the first 159 characters, right-trimmed, + `…`. */
export function clipSynopsis(s: string): string {
  return s.length > SYNOPSIS_MAX ? `${s.slice(0, SYNOPSIS_MAX - 1).trimEnd()}…` : s;
}

/**
 * The synopsis of a page, the same for every caller: the frontmatter `summary`, else
 * the first sentence of the first prose line of the compiled truth with both fences removed
 * (deliberate difference from the reference, which kept facts rows and unterminated takes).
 */
export function synopsisOf(page: Pick<Page, 'frontmatter' | 'compiled_truth'>): string {
  const summary = page.frontmatter?.summary;
  if (typeof summary === 'string' && summary.trim() !== '') return clipSynopsis(collapse(summary));
  const body = typeof page.compiled_truth === 'string' ? page.compiled_truth : '';
  if (body === '') return '';
  const text = stripAllFences(body).replace(DASH_BLOCK, '');
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('<!--')) continue;
    return clipSynopsis(collapse(line.split(SENTENCE_END)[0]));
  }
  return '';
}
