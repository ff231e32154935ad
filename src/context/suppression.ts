/** Prior-context suppression: whole-slug test, and the reflex title test. */

const SLUG_CHAR = /[\p{L}\p{N}_\-/]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ASCII_WORD = /\w/u;

/** The code point ending just before `i` (surrogate-pair aware), or '' at the text start. */
function charBefore(text: string, i: number): string {
  if (i <= 0) return '';
  const lo = text.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = text.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return text.slice(i - 2, i);
  }
  return text[i - 1];
}

function charAt(text: string, i: number): string {
  if (i >= text.length) return '';
  const cp = text.codePointAt(i) as number;
  return String.fromCodePoint(cp);
}

/** Slug characters: letters, digits, `_`, `-`, `/`, and `.` when directly followed by a letter or digit. */
function isSlugCharAt(text: string, i: number, ch: string): boolean {
  if (ch === '') return false;
  if (ch === '.') return LETTER_OR_DIGIT.test(charAt(text, i + 1));
  return SLUG_CHAR.test(ch);
}

/** True when `slug` occurs in `priorLower` (already lower-cased) with no slug character on either side. */
export function containsWholeSlug(priorLower: string, slug: string): boolean {
  if (slug === '' || priorLower === '') return false;
  for (let at = priorLower.indexOf(slug); at >= 0; at = priorLower.indexOf(slug, at + 1)) {
    const before = charBefore(priorLower, at);
    const beforeAt = at - before.length;
    if (isSlugCharAt(priorLower, beforeAt, before)) continue;
    const end = at + slug.length;
    if (isSlugCharAt(priorLower, end, charAt(priorLower, end))) continue;
    return true;
  }
  return false;
}

/** The reflex window-1 title test: the lower-cased title bounded by `(^|\W)` and `(\W|$)` (ASCII `\W`). */
export function containsWholeTitle(priorLower: string, lowerTitle: string): boolean {
  if (lowerTitle === '' || priorLower === '') return false;
  for (let at = priorLower.indexOf(lowerTitle); at >= 0; at = priorLower.indexOf(lowerTitle, at + 1)) {
    const end = at + lowerTitle.length;
    if (at > 0 && ASCII_WORD.test(priorLower[at - 1])) continue;
    if (end < priorLower.length && ASCII_WORD.test(priorLower[end])) continue;
    return true;
  }
  return false;
}
