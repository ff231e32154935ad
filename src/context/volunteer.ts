import type { MatchArm } from '../domain/event-schemas.js';
import { learnedConfidence, type LearnedSnapshot } from '../learning/learning-rule.js';
import { ARM_CONFIDENCE, compareRankable, confidenceFor, MAX_CONFIDENCE, passesGate, pointerRationale, rationaleFor } from './confidence.js';
import { extractCandidates, type Candidate } from './extract.js';
import { normalizeMaxPages, normalizeMaxPointers, normalizeMinConfidence } from './knobs.js';
import type { PageIndex, PageRecord } from './page-index.js';
import { resolveCandidates, type Pointer } from './resolve.js';
import { withoutCoveredMentions } from './span-cover.js';
import { normalizeAlias } from './strings.js';
import { containsWholeSlug, containsWholeTitle } from './suppression.js';
import { TurnCache } from './turn-cache.js';
import type { DecisionTurn } from './turn.js';
import { mergeWindow, type TurnExtractor, type WindowCandidate } from './merge-window.js';

/** A volunteered page (the one-shot result shape) plus the first-mention rank it was ordered by. */
export interface VolunteeredPage {
  slug: string;
  source_id: string;
  display: string;
  confidence: number;
  arm: MatchArm;
  rationale: string;
  synopsis: string;
  /** First-mention rank of the matched window candidate (Infinity when none). */
  rank: number;
}

/**
 * An ungated pointer (hook and reflex lanes): the same shape, with the arm's base confidence (not
 * boosted), logged as `<arm> match "<display>"`.
 */
export type ResolvedPointer = VolunteeredPage;

interface DecideOptions {
  /** Source ids in scope, in order. Empty → nothing. */
  scope: readonly string[];
  /** Remote caller: private pages never resolve. Default false (owner). */
  remote?: boolean;
  /** Slugs (any source) removed before gating and capping, so an excluded page takes no cap slot. */
  excludeSlugs?: Pick<ReadonlySet<string>, 'has'> | readonly string[];
  /** Text already shown to the reader; a whole slug occurring in it suppresses the page. */
  priorContext?: string;
  /** Weak aliases, surname and CJK arms. Default true. */
  lexicalArms?: boolean;
  /** Gazetteer pass over registered titles and aliases (`retrieval.reflex.gazetteer`). Default true. */
  gazetteer?: boolean;
  /** Per-turn extraction override (tests, caches); default the strong, weak and CJK passes + gazetteer. */
  extract?: TurnExtractor;
}

export interface VolunteerOptions extends DecideOptions {
  /** Gate; normalised by normalizeMinConfidence (default 0.7). */
  minConfidence?: unknown;
  /** Cap; normalised by normalizeMaxPages (default 3, at most 5). */
  maxPages?: unknown;
  /**
   * What the log taught the gate (`retrieval.reflex.learning`): confidences are scaled by it
   * before the gate and the order. Absent: the static gate.
   */
  learned?: LearnedSnapshot;
}

export interface PointerOptions extends DecideOptions {
  /** Cap; normalised by normalizeMaxPointers (default 3). */
  maxPointers?: unknown;
  /** Reflex at window 1: also suppress pages whose lower title occurs as a word in the prior text. */
  suppressTitles?: boolean;
}

interface Scored {
  pointer: Pointer;
  display: string;
  cand: WindowCandidate | undefined;
  confidence: number;
  rank: number;
  slug: string;
  sourcePos: number;
  /** Why the learned state moved the confidence (none with the static gate). */
  learnedNotes?: string[];
}

/**
 * Display: the (merged) display of the candidate whose key is the title's key, as it is,
 * else the title. A capitalised run may span a line break or a whitespace run (the strong pass
 * keeps it, trimmed), and the spec shows that surface unchanged.
 */
function displayFor(rec: PageRecord, byKey: ReadonlyMap<string, WindowCandidate>): string {
  return byKey.get(normalizeAlias(rec.title))?.display ?? rec.title;
}

function isExcluded(excl: DecideOptions['excludeSlugs'], slug: string): boolean {
  if (!excl) return false;
  return Array.isArray(excl) ? excl.includes(slug) : (excl as Pick<ReadonlySet<string>, 'has'>).has(slug);
}

const specCache = new TurnCache();
const gazetteerCaches = new WeakMap<PageIndex, TurnCache>();

/**
 * The spec's passes, plus the gazetteer scan restricted to visible in-scope pages when on;
 * memoised per text (the window re-reads the same turns on every step).
 */
function turnExtractor(index: PageIndex, o: DecideOptions): TurnExtractor {
  const gaz = o.gazetteer === false ? null : index.gazetteer;
  if (!gaz) {
    return (text) => {
      let hit = specCache.get('', text);
      if (!hit) specCache.set('', text, (hit = extractCandidates(text)));
      return hit;
    };
  }
  let cache = gazetteerCaches.get(index);
  if (!cache) gazetteerCaches.set(index, (cache = new TurnCache()));
  const memo = cache;
  const remote = o.remote === true;
  const signature = `${index.version}|${remote ? 'r' : 'o'}|${o.scope.join(',')}`;
  let extra: ((text: string, taken: Set<string>, out: Candidate[]) => void) | null = null;
  return (text) => {
    let hit = memo.get(signature, text);
    if (hit) return hit;
    if (!extra) {
      const scope = new Set(o.scope);
      const accept = (rec: PageRecord): boolean => scope.has(rec.sourceId) && !(remote && rec.private);
      extra = (t, taken, out) => gaz.scan(t, accept, taken, out);
    }
    hit = extractCandidates(text, extra);
    memo.set(signature, text, hit);
    return hit;
  };
}

/**
 * The longest name wins (span-cover.ts): an extractor giving each turn's candidates without the
 * sightings covered by a longer matched name, or null when no turn has any (most windows), so
 * the window is merged and resolved again only when something changed.
 */
function withoutCoveredSightings(turns: readonly DecisionTurn[], extract: TurnExtractor, matchedKeys: ReadonlySet<string>): TurnExtractor | null {
  let narrowed: Map<string, readonly Candidate[]> | null = null;
  for (const turn of turns) {
    if (typeof turn?.text !== 'string' || turn.text === '') continue;
    const all = extract(turn.text);
    const left = withoutCoveredMentions(all, matchedKeys);
    if (left !== all) (narrowed ??= new Map()).set(turn.text, left);
  }
  if (!narrowed) return null;
  const byText = narrowed;
  return (text) => byText.get(text) ?? extract(text);
}

/** Extract → merge → resolve → suppress/exclude → score, in volunteer order. */
function decide(turns: readonly DecisionTurn[], index: PageIndex, o: DecideOptions, suppressTitles: boolean): Scored[] {
  if (!Array.isArray(turns) || turns.length === 0 || !Array.isArray(o.scope) || o.scope.length === 0) return [];
  const extract = o.extract ?? turnExtractor(index, o);
  let cands = mergeWindow(turns, extract);
  if (cands.length === 0) return [];
  const resolveOptions = { scope: o.scope, remote: o.remote === true, lexicalArms: o.lexicalArms !== false };
  const matchedKeys = new Set<string>();
  let pointers = resolveCandidates(cands, index, { ...resolveOptions, matchedKeys });
  if (pointers.length === 0) return [];
  if (matchedKeys.size > 1) {
    const narrowed = withoutCoveredSightings(turns, extract, matchedKeys);
    if (narrowed) {
      cands = mergeWindow(turns, narrowed);
      pointers = resolveCandidates(cands, index, resolveOptions);
      if (pointers.length === 0) return [];
    }
  }
  const byKey = new Map<string, WindowCandidate>();
  for (const c of cands) byKey.set(c.key, c);
  const prior = typeof o.priorContext === 'string' ? o.priorContext.toLowerCase() : '';
  const out: Scored[] = [];
  for (const pointer of pointers) {
    const rec = pointer.rec;
    if (isExcluded(o.excludeSlugs, rec.slug)) continue;
    if (prior !== '' && containsWholeSlug(prior, rec.slug)) continue;
    if (suppressTitles && prior !== '' && containsWholeTitle(prior, rec.lowerTitle)) continue;
    const display = displayFor(rec, byKey);
    const cand = byKey.get(pointer.matchedKey) ?? byKey.get(normalizeAlias(display));
    out.push({
      pointer,
      display,
      cand,
      confidence: confidenceFor(pointer.arm, cand),
      rank: cand ? cand.order : Infinity,
      slug: rec.slug,
      sourcePos: pointer.sourcePos,
    });
  }
  return out.sort(compareRankable);
}

/**
 * The learning gate: each confidence scaled by what the log says of its page and arm, then the
 * volunteer order again (a lowered page may fall behind one it used to lead).
 */
function withLearned(scored: Scored[], learned: LearnedSnapshot): Scored[] {
  return scored
    .map((s) => {
      const { factor, notes } = learnedConfidence(learned, s.pointer.rec.sourceId, s.slug, s.pointer.arm);
      return notes.length === 0 ? s : { ...s, confidence: Math.min(MAX_CONFIDENCE, s.confidence * factor), learnedNotes: notes };
    })
    .sort(compareRankable);
}

/**
 * The volunteer decision: pages from the window that clear the gate, in order,
 * capped. No turns or an empty scope → [] without touching the index; no candidates → [] without
 * touching it when the gazetteer is off (the gazetteer lives in the index and is itself a source
 * of candidates, so with it on the index is read to find out whether there are any).
 */
export function volunteer(turns: readonly DecisionTurn[], index: PageIndex, options: VolunteerOptions): VolunteeredPage[] {
  const min = normalizeMinConfidence(options.minConfidence);
  const max = normalizeMaxPages(options.maxPages);
  const windowTurns = Array.isArray(turns) ? turns.length : 0;
  const out: VolunteeredPage[] = [];
  const scored = decide(turns, index, options, false);
  for (const s of options.learned ? withLearned(scored, options.learned) : scored) {
    if (out.length >= max) break;
    if (!passesGate(s.confidence, min)) continue;
    const rec = s.pointer.rec;
    const rationale = rationaleFor(s.pointer.arm, s.display, s.cand, windowTurns);
    out.push({
      slug: rec.slug,
      source_id: rec.sourceId,
      display: s.display,
      confidence: s.confidence,
      arm: s.pointer.arm,
      rationale: s.learnedNotes ? [rationale, ...s.learnedNotes].join('; ') : rationale,
      synopsis: rec.synopsis,
      rank: s.rank,
    });
  }
  return out;
}

/**
 * Ungated pointers for the hook and reflex lanes: resolved, suppressed,
 * ordered as volunteered pages are (by the boosted confidence), capped; each carries its arm's base confidence.
 */
export function resolvePointers(turns: readonly DecisionTurn[], index: PageIndex, options: PointerOptions): ResolvedPointer[] {
  const max = normalizeMaxPointers(options.maxPointers);
  const out: ResolvedPointer[] = [];
  for (const s of decide(turns, index, options, options.suppressTitles === true)) {
    if (out.length >= max) break;
    const rec = s.pointer.rec;
    out.push({
      slug: rec.slug,
      source_id: rec.sourceId,
      display: s.display,
      confidence: ARM_CONFIDENCE[s.pointer.arm],
      arm: s.pointer.arm,
      rationale: pointerRationale(s.pointer.arm, s.display),
      synopsis: rec.synopsis,
      rank: s.rank,
    });
  }
  return out;
}
