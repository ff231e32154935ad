/** String functions shared by extraction, the page index and resolution (spec §0.1). */

const WHITESPACE_RUN = /\s+/gu;
const LEADING_QUOTES = /^["'`[(]+/u;
const TRAILING_QUOTES = /["'`\])]+$/u;

/** The lookup key of a text: NFKC, lower-case, single spaces, outer quotes/brackets removed. `""` = no key. */
export function normalizeAlias(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(WHITESPACE_RUN, ' ')
    .trim()
    .replace(LEADING_QUOTES, '')
    .replace(TRAILING_QUOTES, '')
    .trim();
}

const COMBINING_MARKS = /[\u0300-\u036f]/gu;
const NON_SLUG_RUN = /[^a-z0-9]+/gu;
const DASH_RUN = /-{2,}/gu;
const EDGE_DASHES = /^-+|-+$/gu;

/** ASCII slug of a text; non-Latin text (e.g. CJK) slugifies to `""`. */
export function slugify(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(NON_SLUG_RUN, '-')
    .replace(DASH_RUN, '-')
    .replace(EDGE_DASHES, '');
}

/** CJK character ranges of the spec: CJK ideographs, hiragana, katakana, Hangul syllables. */
export const CJK_CLASS = '\\u4E00-\\u9FFF\\u3040-\\u309F\\u30A0-\\u30FF\\uAC00-\\uD7AF';
const HAS_CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
const ALL_CJK = new RegExp(`^[${CJK_CLASS}]+$`, 'u');

export const isCjkChar = (ch: string): boolean => ch.length === 1 && HAS_CJK.test(ch);
export const hasCjk = (s: string): boolean => HAS_CJK.test(s);
/** True for a non-empty text made only of CJK characters. */
export const isAllCjk = (s: string): boolean => ALL_CJK.test(s);

const POSSESSIVE_S = /['’]s$/iu;
const LONE_APOSTROPHE = /['’]$/u;

/** Removes a final `'s`/`’s` (case-insensitive), then a final lone `'`/`’`. */
export function stripPossessive(s: string): string {
  return s.replace(POSSESSIVE_S, '').replace(LONE_APOSTROPHE, '');
}
