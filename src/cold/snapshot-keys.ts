import { newTokenList, normToken, tokenize } from '../context/gazetteer-tokens.js';
import type { PageRecord } from '../context/page-index.js';
import { CJK_CLASS } from '../context/strings.js';

/**
 * The words a page-index snapshot files pages under, and the words of a conversation that are
 * looked up in it. Any name of a page that the decision can match in a text has all of its
 * words in that text (matching is word-aligned, and both sides are normalised the same way:
 * possessive stripped, NFKC, lower-cased), so filing each name under just one of its words (the
 * rarest) and looking up every word of the text finds every page that could match, and few
 * others. Scripts written without spaces are split into single characters, since a name there is
 * a substring of a longer run.
 */
const PIECE = new RegExp(`[a-z0-9]+|[${CJK_CLASS}]|[^a-z0-9${CJK_CLASS}'’]+`, 'gu');
const COMBINING_MARKS = /\p{M}/gu;
const ASCII_WORD = /^[a-z0-9]+$/u;

const scratch = newTokenList();

const INNER_CAPITAL = /(?<=.)\p{Lu}/gu;

function pushPieces(norm: string, out: string[]): void {
  if (ASCII_WORD.test(norm)) {
    out.push(norm);
    return;
  }
  const folded = norm.normalize('NFKD').replace(COMBINING_MARKS, '');
  PIECE.lastIndex = 0;
  for (let m = PIECE.exec(folded); m !== null; m = PIECE.exec(folded)) out.push(m[0]);
}

/**
 * The lookup words of one text, in order of appearance (may repeat). Each normalised token is
 * also folded the way slugs are (accents dropped) and cut where slugs cut it (apostrophes,
 * letters outside ASCII), so a slug tail and the title it came from share their words. With
 * `innerCapitals`, a token with a capital inside (`forMax`, `iPhone`) also yields the part from
 * that capital on, since a capitalised name is recognised there in running text.
 */
function wordsOf(text: string, out: string[] = [], innerCapitals = false): string[] {
  const t = tokenize(text, scratch);
  for (let i = 0; i < t.count; i++) {
    pushPieces(t.norm[i]!, out);
    if (!innerCapitals) continue;
    const raw = text.slice(t.start[i], t.end[i]);
    INNER_CAPITAL.lastIndex = 0;
    for (let m = INNER_CAPITAL.exec(raw); m !== null; m = INNER_CAPITAL.exec(raw)) pushPieces(normToken(raw.slice(m.index)), out);
  }
  return out;
}

/** Every text a page can be found by: its title, aliases, slug tail and surname. */
function namesOf(rec: PageRecord): string[] {
  const names = [rec.title, ...rec.aliases, rec.tail];
  const surname = rec.surname;
  if (surname !== null) names.push(surname);
  return names;
}

/** The distinct lookup words of a conversation window (turn texts and any prior context). */
export function windowWords(texts: Iterable<string>): Set<string> {
  const words = new Set<string>();
  const buf: string[] = [];
  for (const text of texts) {
    buf.length = 0;
    for (const w of wordsOf(text, buf, true)) words.add(w);
  }
  return words;
}

/**
 * For each record, the words it is filed under: per name, its rarest word across all names of
 * all records (ties → the longer word, then the first). A name without any word (only
 * punctuation) files its record under `''`, which every lookup reads.
 */
export function filingWords(records: readonly PageRecord[]): string[][] {
  const namesWords = records.map((rec) => namesOf(rec).map((name) => [...new Set(wordsOf(name))]));
  const frequency = new Map<string, number>();
  for (const perName of namesWords) {
    const seen = new Set<string>();
    for (const words of perName) for (const w of words) seen.add(w);
    for (const w of seen) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  }
  return namesWords.map((perName) => {
    const chosen = new Set<string>();
    for (const words of perName) {
      let best = '';
      let bestCount = Infinity;
      for (const w of words) {
        const n = frequency.get(w)!;
        if (n < bestCount || (n === bestCount && w.length > best.length)) {
          best = w;
          bestCount = n;
        }
      }
      chosen.add(best);
    }
    return [...chosen];
  });
}
