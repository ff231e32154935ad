import { withoutOverlongRuns } from './overlong-runs.js';
import { HARD_STOPWORDS, SOFT_COMMON_WORDS } from './stopwords.js';
import { CJK_CLASS, hasCjk, normalizeAlias, stripPossessive } from './strings.js';

/** An entity surface found in one turn. `key` = normalizeAlias(query). */
export interface Candidate {
  display: string;
  query: string;
  key: string;
  weak: boolean;
  /** Found by the gazetteer pass (feeds only the alias and title arms). */
  gazetteer?: boolean;
  /**
   * Where the key was seen in the turn: flat `[start, end, start, end, …]` offsets of every
   * sighting the passes recorded. Absent when unknown (such a mention is never covered by a
   * longer name, see span-cover.ts).
   */
  spans?: number[];
}

export const MAX_STRONG = 12;
export const MAX_WEAK = 32;
const MAX_CJK = 24;

const HANDLE = /@([A-Za-z0-9_]{2,})/gu;
const CAP_TOKEN = "\\p{Lu}[\\p{L}0-9'’\\-]*(?:\\.\\p{L}[\\p{L}0-9'’\\-]*)*";
const CAP_RUN = new RegExp(`${CAP_TOKEN}(?:\\s+${CAP_TOKEN}){0,3}`, 'gu');
const WEAK_TOKEN = /(?<![\p{L}\p{N}'’@-])\p{Ll}[\p{L}\p{N}'’-]{2,}(?![\p{L}\p{N}'’-])/gu;
const CJK_RUN = new RegExp(`[${CJK_CLASS}]{2,}`, 'gu');
const ONLY_HIRAGANA = /^[\u3040-\u309F]+$/u;
const WHITESPACE = /\s/u;
const WHITESPACE_RUN = /\s+/u;
const PURE_NUMBER = /^[0-9][0-9.,]*$/u;
const SENTENCE_PUNCT = '.!?:;•-(["“';

interface StrongEntry {
  display: string;
  query: string;
  key: string;
  multiToken: boolean;
  seenMidSentence: boolean;
  spans: number[];
}

/** True when only whitespace (or nothing) separates `i` from the text start or sentence punctuation. */
export function sentenceStart(text: string, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && WHITESPACE.test(text[j])) j--;
  return j < 0 || SENTENCE_PUNCT.includes(text[j]);
}

const isHardStopword = (token: string): boolean => HARD_STOPWORDS.has(stripPossessive(token).toLowerCase());

/** Strong pass: handles and capitalised runs, precision-filtered, ≤ 12, first-seen order. */
function extractStrong(text: string): Candidate[] {
  const entries = new Map<string, StrongEntry>();
  const consider = (rawDisplay: string, rawQuery: string, mid: boolean, start: number, end: number): void => {
    const query = stripPossessive(rawQuery.trim());
    if (query === '') return;
    const key = normalizeAlias(query);
    if (key === '') return;
    const found = entries.get(key);
    if (found) {
      if (mid) found.seenMidSentence = true;
      found.spans.push(start, end);
      return;
    }
    entries.set(key, { display: rawDisplay.trim(), query, key, multiToken: WHITESPACE.test(query), seenMidSentence: mid, spans: [start, end] });
  };

  HANDLE.lastIndex = 0;
  for (let m = HANDLE.exec(text); m !== null; m = HANDLE.exec(text)) consider(`@${m[1]}`, m[1], true, m.index, m.index + m[0].length);

  CAP_RUN.lastIndex = 0;
  for (let m = CAP_RUN.exec(text); m !== null; m = CAP_RUN.exec(text)) {
    const run = m[0];
    consider(run, run, !sentenceStart(text, m.index), m.index, m.index + run.length);
    const tokens = run.split(WHITESPACE_RUN);
    let k = 0;
    while (k < tokens.length && isHardStopword(tokens[k])) k++;
    if (k > 0 && k < tokens.length) {
      const rest = tokens.slice(k).join(' ');
      consider(rest, rest, true, m.index + tokenStart(run, k), m.index + run.length);
    }
  }

  const out: Candidate[] = [];
  for (const e of entries.values()) {
    if (out.length >= MAX_STRONG) break;
    if (!e.multiToken) {
      const lower = e.query.toLowerCase();
      if (e.query.length < 2 || PURE_NUMBER.test(e.query) || HARD_STOPWORDS.has(lower)) continue;
      if (SOFT_COMMON_WORDS.has(lower) && !e.seenMidSentence) continue;
    }
    out.push({ display: e.display, query: e.query, key: e.key, weak: false, spans: e.spans });
  }
  return out;
}

/** Offset of the k-th whitespace-separated token of a capitalised run. */
function tokenStart(run: string, k: number): number {
  const token = /\S+/gu;
  let m = token.exec(run);
  for (let i = 0; i < k && m !== null; i++) m = token.exec(run);
  return m ? m.index : run.length;
}

/**
 * Records a sighting of an already emitted key on its candidate, so a later pass that meets a
 * key again (a lower-case "cyberpunk" after "Cyberpunk") still tells where it was mentioned.
 */
function sightingRecorder(out: Candidate[]): (key: string, start: number, end: number) => void {
  let byKey: Map<string, Candidate> | null = null;
  let indexed = 0;
  return (key, start, end) => {
    byKey ??= new Map();
    for (; indexed < out.length; indexed++) byKey.set(out[indexed].key, out[indexed]);
    byKey.get(key)?.spans?.push(start, end);
  };
}

/** Weak lower-case pass: ≤ 32 tokens in text order, shadowed by emitted strong keys. */
function extractWeak(text: string, taken: Set<string>, out: Candidate[]): void {
  let emitted = 0;
  const seenAgain = sightingRecorder(out);
  WEAK_TOKEN.lastIndex = 0;
  for (let m = WEAK_TOKEN.exec(text); m !== null; m = WEAK_TOKEN.exec(text)) {
    if (emitted >= MAX_WEAK) break;
    const raw = stripPossessive(m[0]);
    if (raw.length < 3) continue;
    const lower = raw.toLowerCase();
    if (HARD_STOPWORDS.has(lower) || SOFT_COMMON_WORDS.has(lower)) continue;
    const key = normalizeAlias(raw);
    if (key === '') continue;
    if (taken.has(key)) {
      seenAgain(key, m.index, m.index + m[0].length);
      continue;
    }
    taken.add(key);
    out.push({ display: raw, query: raw, key, weak: true, spans: [m.index, m.index + m[0].length] });
    emitted++;
  }
}

/** CJK pass: n-grams (4, 3, 2) of CJK runs, ≤ 24, pure-hiragana grams skipped. */
export function extractCjk(text: string, taken: Set<string>, out: Candidate[]): void {
  if (!hasCjk(text)) return;
  let emitted = 0;
  const seenAgain = sightingRecorder(out);
  const emit = (gram: string, start: number): boolean => {
    if (ONLY_HIRAGANA.test(gram)) return true;
    const key = normalizeAlias(gram);
    if (key === '') return true;
    const end = start + gram.length;
    if (taken.has(key)) {
      seenAgain(key, start, end);
      return true;
    }
    taken.add(key);
    out.push({ display: gram, query: gram, key, weak: true, spans: [start, end] });
    return ++emitted < MAX_CJK;
  };
  CJK_RUN.lastIndex = 0;
  for (let m = CJK_RUN.exec(text); m !== null; m = CJK_RUN.exec(text)) {
    const run = m[0];
    if (run.length <= 4) {
      if (!emit(run, m.index)) return;
      continue;
    }
    for (let i = 0; i <= run.length - 2; i++) {
      for (let len = 4; len >= 2; len--) {
        if (i + len <= run.length && !emit(run.slice(i, i + len), m.index + i)) return;
      }
    }
  }
}

/** An extra pass run after the strong pass; it adds candidates whose keys are not taken yet. */
export type ExtraPass = (text: string, taken: Set<string>, out: Candidate[]) => void;

/**
 * All candidates of one turn: strong (first-seen), then the optional extra pass
 * (gazetteer), then weak lower-case, then CJK. Keys are distinct within a turn. Runs
 * too long to hold a name are not read (see overlong-runs.ts).
 */
export function extractCandidates(turnText: unknown, extra?: ExtraPass): Candidate[] {
  if (typeof turnText !== 'string' || turnText === '') return [];
  const text = withoutOverlongRuns(turnText);
  const out = extractStrong(text);
  const taken = new Set<string>();
  for (const c of out) taken.add(c.key);
  extra?.(text, taken, out);
  extractWeak(text, taken, out);
  extractCjk(text, taken, out);
  return out;
}
