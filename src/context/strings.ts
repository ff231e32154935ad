/** String functions shared by extraction, the page index and resolution. */

const WHITESPACE_RUN = /\s+/gu;
const LEADING_QUOTES = /^["'`[(]+/u;
const TRAILING_QUOTES = /["'`\])]+$/u;

/**
 * Fast path of normalizeAlias for the common case (printable ASCII, single inner spaces, no
 * outer whitespace, quote or bracket): NFKC is the identity there, so only lower-casing is
 * left. Null when the full rule must run.
 */
function simpleKey(s: string): string | null {
  const n = s.length;
  if (n === 0) return '';
  let space = true;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (space) return null;
      space = true;
    } else if (c < 33 || c > 126) return null;
    else space = false;
  }
  if (space) return null;
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(n - 1);
  // " ' ` [ (   and   " ' ` ] )
  if (first === 34 || first === 39 || first === 96 || first === 91 || first === 40) return null;
  if (last === 34 || last === 39 || last === 96 || last === 93 || last === 41) return null;
  return s.toLowerCase();
}

/** The lookup key of a text: NFKC, lower-case, single spaces, outer quotes/brackets removed. `""` = no key. */
export function normalizeAlias(s: string): string {
  return simpleKey(s) ?? s
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

export const hasCjk = (s: string): boolean => HAS_CJK.test(s);
/** True for a non-empty text made only of CJK characters. */
export const isAllCjk = (s: string): boolean => ALL_CJK.test(s);

const POSSESSIVE_S = /['’]s$/iu;
const LONE_APOSTROPHE = /['’]$/u;

/** Removes a final `'s`/`’s` (case-insensitive), then a final lone `'`/`’`. */
export function stripPossessive(s: string): string {
  const last = s.charCodeAt(s.length - 1);
  // Only a final s/S/ſ (ſ folds to s under /iu) or apostrophe can change anything.
  if (last !== 115 && last !== 83 && last !== 0x17f && last !== 39 && last !== 0x2019) return s;
  return s.replace(POSSESSIVE_S, '').replace(LONE_APOSTROPHE, '');
}
