import { stripPossessive } from './strings.js';

/**
 * Word tokens of a text for the gazetteer, normalised the same way for page titles/aliases
 * and for conversation text: possessive stripped, NFKC, lower-cased. The gap before each
 * token is reduced to a code so punctuation inside a name must match
 * (`CS:GO`, `J.K. Rowling`), while hyphens and whitespace are interchangeable.
 */
export interface TokenList {
  count: number;
  norm: string[];
  start: number[];
  /** End of the raw token (possessive included), so a display keeps its `'s`. */
  end: number[];
  /** Case of the first character: 1 upper, 2 lower, 0 neither. */
  firstCase: number[];
  /** Code of the gap before token k (k ≥ 1): ' ' for whitespace/hyphens, else its punctuation. */
  gap: string[];
  /** The gap before token k is punctuation glued on both sides (`Smith-Jones`, `bob@example`). */
  glued: boolean[];
  /** The gap before token k is whitespace only. */
  spaced: boolean[];
  /** Token k ended in a possessive (`McGee's`, `James'`). */
  possessive: boolean[];
}

export const CASE_UPPER = 1;
export const CASE_LOWER = 2;

/**
 * A token is a run of letters, digits and marks, with apostrophes inside or at its end:
 * `[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*['’]?`. That expression as one regular
 * expression recurses once per character of the token on text outside Latin-1 (a class that may
 * match a surrogate pair has no fixed length) and overflows the stack on a few megabytes of
 * letters. So the expression is bounded (every real word fits it in one match), and a token that
 * goes on past the bounds is followed to its end in bounded pieces.
 */
const TOKEN_HEAD = /[\p{L}\p{N}\p{M}]{1,64}(?:['’][\p{L}\p{N}\p{M}]{1,64}){0,8}['’]?/gu;
const MORE_OF_RUN = /[\p{L}\p{N}\p{M}]{1,4096}/uy;
const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;

/** The end of the letter run that continues at `from` (`from` itself when none does). */
function runEnd(text: string, from: number): number {
  let end = from;
  MORE_OF_RUN.lastIndex = end;
  while (MORE_OF_RUN.exec(text) !== null) end = MORE_OF_RUN.lastIndex;
  return end;
}

/** A letter, digit or mark starts at `i`. */
function wordCharAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (Number.isNaN(c)) return false;
  MORE_OF_RUN.lastIndex = i;
  return MORE_OF_RUN.test(text);
}

/**
 * The end of the token whose bounded head ends at `headEnd`. The head takes a trailing
 * apostrophe whenever one follows, so the token goes on only when a letter follows the head.
 */
function tokenEnd(text: string, headEnd: number): number {
  if (!wordCharAt(text, headEnd)) return headEnd;
  let end = runEnd(text, headEnd);
  for (;;) {
    const c = text.charCodeAt(end);
    if (c !== APOSTROPHE && c !== RIGHT_QUOTE) return end;
    const next = runEnd(text, end + 1);
    // A trailing apostrophe belongs to the token; one between two runs joins them.
    if (next === end + 1) return end + 1;
    end = next;
  }
}
const UPPER_START = /^\p{Lu}/u;
const LOWER_START = /^\p{Ll}/u;
const NON_ASCII = /[^\x00-\x7f]/u;
const SOFT_GAP = /^[\s\-‐‑–—_]*$/u;
const GLUE_GAP = /^[-‐‑:._@+'’]+$/u;
const WHITESPACE_RUN = /\s+/gu;
const ONLY_WHITESPACE = /^\s+$/u;
const DOUBLE_QUOTES = /[“”„«»]/gu;
const SINGLE_QUOTES = /[‘’‚]/gu;
const DASHES = /[‐‑–—]/gu;

export function newTokenList(): TokenList {
  return { count: 0, norm: [], start: [], end: [], firstCase: [], gap: [], glued: [], spaced: [], possessive: [] };
}

export function normToken(raw: string): string {
  const s = stripPossessive(raw);
  return (NON_ASCII.test(s) ? s.normalize('NFKC') : s).toLowerCase();
}

const POSSESSIVE_END = /['’](?:[sSſ])?$/u;

function firstCase(raw: string): number {
  const c = raw.charCodeAt(0);
  if (c >= 65 && c <= 90) return CASE_UPPER;
  if (c >= 97 && c <= 122) return CASE_LOWER;
  if (c < 128) return 0;
  return UPPER_START.test(raw) ? CASE_UPPER : LOWER_START.test(raw) ? CASE_LOWER : 0;
}

function gapCode(gap: string): string {
  if (SOFT_GAP.test(gap)) return ' ';
  return gap.replace(WHITESPACE_RUN, '').replace(DOUBLE_QUOTES, '"').replace(SINGLE_QUOTES, "'").replace(DASHES, '-');
}

/** Tokenises `text` into `out` (reused between calls so a scan allocates little). */
export function tokenize(text: string, out: TokenList = newTokenList()): TokenList {
  let n = 0;
  TOKEN_HEAD.lastIndex = 0;
  for (let m = TOKEN_HEAD.exec(text); m !== null; m = TOKEN_HEAD.exec(text)) {
    const start = m.index;
    const headEnd = TOKEN_HEAD.lastIndex;
    const stop = tokenEnd(text, headEnd);
    TOKEN_HEAD.lastIndex = stop;
    const raw = stop === headEnd ? m[0] : text.slice(start, stop);
    const norm = normToken(raw);
    if (norm === '') continue;
    out.norm[n] = norm;
    out.start[n] = start;
    out.end[n] = start + raw.length;
    out.firstCase[n] = firstCase(raw);
    out.possessive[n] = POSSESSIVE_END.test(raw);
    if (n > 0) {
      const from = out.end[n - 1];
      if (start === from + 1 && text.charCodeAt(from) === 32) {
        out.gap[n] = ' ';
        out.glued[n] = false;
        out.spaced[n] = true;
      } else {
        const gap = text.slice(from, start);
        out.gap[n] = gapCode(gap);
        out.glued[n] = GLUE_GAP.test(gap);
        out.spaced[n] = ONLY_WHITESPACE.test(gap);
      }
    } else {
      out.gap[0] = '';
      out.glued[0] = false;
      out.spaced[0] = false;
    }
    n++;
  }
  out.count = n;
  return out;
}

/** The lookup key of tokens i..j: normalised tokens joined by their gap codes. */
export function joinTokens(t: TokenList, i: number, j: number): string {
  let key = t.norm[i];
  for (let k = i + 1; k <= j; k++) key += t.gap[k] + t.norm[k];
  return key;
}
