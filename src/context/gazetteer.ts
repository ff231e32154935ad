import { bucketAdd, bucketItems, bucketRemove, type Bucket } from './bucket.js';
import { sentenceStart, type Candidate } from './extract.js';
import { CASE_LOWER, CASE_UPPER, joinTokens, newTokenList, tokenize, type TokenList } from './gazetteer-tokens.js';
import type { PageRecord, SourceListener } from './page-record.js';
import { HARD_STOPWORDS, SOFT_COMMON_WORDS } from './stopwords.js';
import { normalizeAlias, stripPossessive } from './strings.js';

/**
 * Gazetteer pass (beyond the spec; switch `retrieval.reflex.gazetteer`, on by default). Every
 * live title and alias is compiled into a token trie, kept up to date on page events, so one
 * scan of a turn finds registered names the capitalised-run extractor splits or never forms:
 * digits and lower-case connectors inside titles ("Cyberpunk 2077", "The Lord of the Rings"),
 * punctuation inside aliases ("CS:GO"), possessives ("McGee's"), trailing hyphens
 * ("California-"), runs glued across a name ("Ford Mustang I found", "Met Alice Example
 * today"). Hits feed the `alias` and `title` arms as strong candidates (same confidences,
 * boosts, uniqueness and rationale); a name with no capitalised word (a lower-case alias) stays
 * weak: alias arm only, unique across the scope.
 *
 * Matching rules, the same for names and text: tokens are words with the possessive stripped,
 * NFKC, lower-cased; whitespace and hyphens between words are interchangeable, other
 * punctuation must match. A match is whole words: never inside a glued compound
 * ("Smith-Jones", "bob@example"), never followed by a capitalised word that carries the name on
 * ("Max" in "Max Planck"; a possessive or a stopword ends a name), never preceded by one that
 * carries a longer name into it ("Max" in "Peter Max", "John" in "Elton John"; see
 * `continuedFromLeft` for greetings and sentence starts). Case: every capitalised
 * word of the name must be capitalised in the text, except stopwords ("the Lord of the
 * Rings" matches "The Lord of the Rings"); a lower-case first word must be lower-case. Names
 * made only of stopwords/common words, single letters or numbers, single lower-case words
 * (the weak pass finds those) and names over 12 words are not registered.
 *
 * The trie is two hash maps: whole term keys → entries, and every proper prefix → reference
 * count. A scan probes them only at capitalised tokens (and the few loose first words).
 */

const MAX_TERM_TOKENS = 12;
const MAX_GAZETTEER_HITS = 12;

/** Per-token case requirement, 2 bits each: a capitalised word must be capitalised in the text. */
const REQ_ANY = 0;
const REQ_UPPER = 1;
const REQ_LOWER = 2;
const UPPER_BITS = 0x555555;
const PURE_NUMBER = /^[0-9][0-9.,]*$/u;

/** One registered name of one page. */
class TermEntry {
  constructor(
    readonly rec: PageRecord,
    /** The name as declared (title or alias): the candidate's query. */
    readonly query: string,
    readonly mask: number,
  ) {}

  /** Has a capitalised non-stopword token: a proper name, resolved as a strong candidate. */
  get strong(): boolean {
    return (this.mask & UPPER_BITS) !== 0;
  }
}

interface Term {
  key: string;
  mask: number;
  /** First normalised token and every proper prefix key. */
  first: string;
  prefixes: string[];
}

const isCommon = (norm: string): boolean => HARD_STOPWORDS.has(norm) || SOFT_COMMON_WORDS.has(norm);

/**
 * The term a name registers, or null when the spec's own passes already cover it or it could
 * only ever match by accident: stopword/common-word-only names, single letters or numbers,
 * lower-case single words (the weak pass finds them), names longer than 12 tokens.
 */
function termOf(name: string, tokens: TokenList): Term | null {
  const t = tokenize(name, tokens);
  const n = t.count;
  if (n === 0 || n > MAX_TERM_TOKENS) return null;
  let mask = 0;
  let allCommon = true;
  for (let k = 0; k < n; k++) {
    const norm = t.norm[k];
    const common = isCommon(norm);
    if (!common) allCommon = false;
    let req = REQ_ANY;
    if (t.firstCase[k] === CASE_UPPER) req = HARD_STOPWORDS.has(norm) ? REQ_ANY : REQ_UPPER;
    else if (t.firstCase[k] === CASE_LOWER && k === 0) req = REQ_LOWER;
    mask |= req << (2 * k);
  }
  if (allCommon) return null;
  if (n === 1) {
    const norm = t.norm[0];
    if (norm.length < 2 || PURE_NUMBER.test(norm) || (mask & UPPER_BITS) === 0) return null;
  }
  const prefixes: string[] = [];
  for (let k = 0; k < n - 1; k++) prefixes.push(joinTokens(t, 0, k));
  return { key: joinTokens(t, 0, n - 1), mask, first: t.norm[0], prefixes };
}

export class Gazetteer implements SourceListener {
  private readonly terms = new Map<string, Bucket<TermEntry>>();
  private readonly prefixes = new Map<string, number>();
  /**
   * First tokens of terms that may start at a token not capitalised in the text (a capitalised
   * stopword such as "The", a digit, a lower-case alias), counted. Every other term needs a
   * capitalised first token, so most text tokens are skipped without probing the big maps.
   */
  private readonly looseStarts = new Map<string, number>();
  private readonly scratch = newTokenList();
  private readonly ends: number[] = [];
  private readonly keys: string[] = [];

  /**
   * Names a record registers with their terms: its title and each alias, distinct. A title
   * with no capitalised word could only resolve as an alias, so it registers only if declared
   * as one.
   */
  private termsOf(rec: PageRecord): Array<{ name: string; term: Term }> {
    const names = rec.aliases.length === 0 ? [rec.title] : [...new Set([rec.title, ...rec.aliases])];
    const out: Array<{ name: string; term: Term }> = [];
    for (const name of names) {
      const term = termOf(name, this.scratch);
      if (!term) continue;
      if ((term.mask & UPPER_BITS) === 0 && name === rec.title && !rec.aliases.includes(name)) continue;
      out.push({ name, term });
    }
    return out;
  }

  added(rec: PageRecord): void {
    for (const { name, term } of this.termsOf(rec)) {
      // Share the record's lower title as the map key when they are the same text.
      const key = term.key === rec.lowerTitle ? rec.lowerTitle : term.key;
      bucketAdd(this.terms, key, new TermEntry(rec, name, term.mask));
      this.countPrefixes(term, 1);
    }
  }

  removed(rec: PageRecord): void {
    for (const { name, term } of this.termsOf(rec)) {
      for (const e of bucketItems(this.terms.get(term.key))) {
        if (e.rec === rec && e.query === name) {
          bucketRemove(this.terms, term.key, e);
          break;
        }
      }
      this.countPrefixes(term, -1);
    }
  }

  private countPrefixes(term: Term, delta: number): void {
    if ((term.mask & 3) !== REQ_UPPER) count(this.looseStarts, term.first, delta);
    for (const prefix of term.prefixes) count(this.prefixes, prefix, delta);
  }

  /** Number of distinct term keys and of prefixes (for benchmarks). */
  stats(): { terms: number; prefixes: number } {
    return { terms: this.terms.size, prefixes: this.prefixes.size };
  }

  /**
   * One left-to-right scan of `text`: at each token the longest registered name that matches
   * as whole words with its case requirements wins. Entries of pages `accept` rejects (out of
   * scope, private for remote callers) do not exist. Emits candidates whose keys are not in
   * `taken` (adding them), at most 12.
   */
  scan(text: string, accept: (rec: PageRecord) => boolean, taken: Set<string>, out: Candidate[]): void {
    if (this.terms.size === 0) return;
    const t = tokenize(text, this.scratch);
    const n = t.count;
    const ends = this.ends;
    const keys = this.keys;
    let hits = 0;
    for (let i = 0; i < n && hits < MAX_GAZETTEER_HITS; ) {
      if (t.glued[i] || (t.firstCase[i] !== CASE_UPPER && !this.looseStarts.has(t.norm[i]))) {
        i++;
        continue;
      }
      ends.length = 0;
      keys.length = 0;
      let key = t.norm[i];
      for (let j = i; ; ) {
        if (this.terms.has(key)) {
          ends.push(j);
          keys.push(key);
        }
        if (j + 1 >= n || j - i + 1 >= MAX_TERM_TOKENS || !this.prefixes.has(key)) break;
        j++;
        key += t.gap[j] + t.norm[j];
      }
      let next = i + 1;
      for (let e = ends.length - 1; e >= 0; e--) {
        const j = ends[e];
        if (j + 1 < n && (t.glued[j + 1] || (!t.possessive[j] && continuesName(t, j + 1)))) continue;
        if (continuedFromLeft(text, t, i)) continue;
        let matched = false;
        for (const entry of bucketItems(this.terms.get(keys[e]))) {
          if (!accept(entry.rec) || !fits(entry.mask, t, i)) continue;
          matched = true;
          const query = entry.query;
          const ckey = normalizeAlias(query);
          if (ckey === '') continue;
          const start = t.start[i];
          const end = t.end[j];
          if (taken.has(ckey)) {
            // Same key, other spelling ("Alice\nExample"): the name as registered is the query
            // the title arm compares, so the strong candidate takes it.
            const same = out.find((c) => c.key === ckey);
            if (same && !same.weak && entry.strong) same.query = query;
            same?.spans?.push(start, end);
            continue;
          }
          taken.add(ckey);
          out.push({ display: displayOf(text.slice(start, end), query), query, key: ckey, weak: !entry.strong, gazetteer: true, spans: [start, end] });
          hits++;
        }
        if (matched) {
          next = j + 1;
          break;
        }
      }
      i = next;
    }
    if (n > SCRATCH_KEEP) shrink(this.scratch);
  }
}

/** Token arrays beyond this size are released after a scan (a huge turn must not pin memory). */
const SCRATCH_KEEP = 4096;

function shrink(t: TokenList): void {
  t.count = 0;
  t.norm.length = t.start.length = t.end.length = t.firstCase.length = t.gap.length = t.glued.length = t.spaced.length = t.possessive.length = 0;
}

/** Adds `delta` to a reference count, deleting it at zero. */
function count(map: Map<string, number>, key: string, delta: number): void {
  const n = (map.get(key) ?? 0) + delta;
  if (n <= 0) map.delete(key);
  else map.set(key, n);
}

/**
 * Token k, right after a match, carries a capitalised run on: "Max" in "Max Planck" is part
 * of a longer name, not the page "Max". A capitalised stopword ("Ford Mustang I found") does
 * not continue a name, nor does anything after a possessive ("McGee's Place").
 */
function continuesName(t: TokenList, k: number): boolean {
  return t.spaced[k] && t.firstCase[k] === CASE_UPPER && !HARD_STOPWORDS.has(t.norm[k]);
}

/**
 * The match i..j continues a capitalised name that starts on its left: "Max" in "I met Peter
 * Max", "John" in "we saw Elton John", "Paris" in "Hilton Paris". The word on the left must be
 * separated by whitespace only and capitalised; a hard stopword ("Hi John", "Thanks Melanie",
 * "I", "The") or a possessive ("Maria's Coco") does not carry a name on, exactly as on the right.
 * A word opening a sentence is capitalised by the sentence, so it is no evidence of a name:
 * "Met Quill at the fair", "Wow John", "Thanks to Alice Example" keep their names (in a chat a
 * name after an opening word is far more often addressed or met than the tail of a longer name).
 */
function continuedFromLeft(text: string, t: TokenList, i: number): boolean {
  if (i === 0 || !t.spaced[i] || t.firstCase[i] !== CASE_UPPER) return false;
  const k = i - 1;
  if (t.firstCase[k] !== CASE_UPPER || t.possessive[k] || HARD_STOPWORDS.has(t.norm[k])) return false;
  return !sentenceStart(text, t.start[k]);
}

/**
 * The display of a hit: the text as written when it is the registered name up to what the
 * spec's own keys ignore (case, whitespace, width, a possessive), so "Garry's" stays "Garry's";
 * otherwise the name as registered. A match made through hyphen or punctuation normalisation
 * ("Spider Man" for "Spider-Man", "CS: GO" for "CS:GO") is then shown, and explained in the
 * rationale ("exact title match"), with the page's own spelling, not a surface it never had.
 */
function displayOf(surface: string, name: string): string {
  return normalizeAlias(stripPossessive(surface)) === normalizeAlias(stripPossessive(name)) ? surface : name;
}

/** The case requirements of a term, checked against text tokens from `i`. */
function fits(mask: number, t: TokenList, i: number): boolean {
  for (let k = i, m = mask; m !== 0; k++, m >>>= 2) {
    const req = m & 3;
    if (req === REQ_UPPER && t.firstCase[k] !== CASE_UPPER) return false;
    if (req === REQ_LOWER && t.firstCase[k] !== CASE_LOWER) return false;
  }
  return true;
}
