import { extractCandidates, MAX_STRONG, MAX_WEAK, type Candidate } from './extract.js';
import type { DecisionTurn } from './turn.js';

/** A candidate merged over the window with its salience facts. */
export interface WindowCandidate {
  display: string;
  query: string;
  key: string;
  weak: boolean;
  /** Only gazetteer sightings so far: resolves through the alias and title arms only. */
  gazetteer: boolean;
  occurrences: number;
  lastTurnIdx: number;
  inNewestTurn: boolean;
  userMention: boolean;
  /** Named in an assistant turn (not only by the user or in tool output). */
  assistantMention: boolean;
  /** First-seen rank across the window: the first-mention rank used for ordering. */
  order: number;
  /** Salience: recency + frequency (≤ 4) × 0.1 + 0.15 for a user mention. */
  weight: number;
}

/** Extracts one turn's candidates; replaceable so callers can add passes (gazetteer) or caches. */
export type TurnExtractor = (text: string) => readonly Candidate[];

const weight = (c: WindowCandidate, turnCount: number): number =>
  (c.lastTurnIdx + 1) / turnCount + Math.min(c.occurrences, 4) * 0.1 + (c.userMention ? 0.15 : 0);

/**
 * Merges per-turn candidates oldest → newest by key, then sorts strong before weak, weight
 * descending, first-mention rank; keeps the first 12 strong and 32 weak.
 */
export function mergeWindow(turns: readonly DecisionTurn[], extract: TurnExtractor = extractCandidates): WindowCandidate[] {
  const byKey = new Map<string, WindowCandidate>();
  const last = turns.length - 1;
  let order = 0;
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i];
    if (typeof turn?.text !== 'string' || turn.text === '') continue;
    const isUser = turn.role === 'user';
    const isAssistant = turn.role === 'assistant';
    for (const c of extract(turn.text)) {
      const e = byKey.get(c.key);
      if (!e) {
        byKey.set(c.key, {
          display: c.display,
          query: c.query,
          key: c.key,
          weak: c.weak,
          gazetteer: c.gazetteer === true,
          occurrences: 1,
          lastTurnIdx: i,
          inNewestTurn: i === last,
          userMention: isUser,
          assistantMention: isAssistant,
          order: order++,
          weight: 0,
        });
        continue;
      }
      e.occurrences += 1;
      e.lastTurnIdx = i;
      e.inNewestTurn ||= i === last;
      e.assistantMention ||= isAssistant;
      // Deliberate difference from the reference: a strong sighting replaces a weak-born
      // query, so `saoirse … Saoirse` can reach the surname arm whatever the turn order.
      if (e.weak && !c.weak) {
        e.weak = false;
        e.query = c.query;
        e.gazetteer = c.gazetteer === true;
        if (!(e.userMention && !isUser)) e.display = c.display;
      } else if (!c.weak && c.gazetteer !== true) {
        e.gazetteer = false;
      }
      if (isUser && !e.userMention) {
        e.display = c.display;
        e.userMention = true;
      }
    }
  }
  const turnCount = turns.length;
  const all = [...byKey.values()];
  for (const c of all) c.weight = weight(c, turnCount);
  all.sort((a, b) => {
    if (a.weak !== b.weak) return a.weak ? 1 : -1;
    const d = b.weight - a.weight;
    return d !== 0 ? d : a.order - b.order;
  });
  const out: WindowCandidate[] = [];
  let strong = 0;
  let weak = 0;
  for (const c of all) {
    if (c.weak ? weak++ < MAX_WEAK : strong++ < MAX_STRONG) out.push(c);
  }
  return out;
}
