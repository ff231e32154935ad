import type { MatchArm } from '../domain/event-schemas.js';
import { CONFIDENCE_EPSILON } from './knobs.js';

/** Base confidence per arm. */
export const ARM_CONFIDENCE: Readonly<Record<MatchArm, number>> = Object.freeze({
  alias: 0.9,
  title: 0.8,
  'title-surname': 0.72,
  'cjk-title': 0.72,
  'slug-suffix': 0.6,
});

const SALIENCE_BOOST = 0.05;
export const MAX_CONFIDENCE = 0.99;

/** The salience facts of the window candidate a pointer joins. */
export interface SalienceFacts {
  occurrences: number;
  inNewestTurn: boolean;
  userMention: boolean;
  /** Absent or true: named by the assistant; false: seen only in tool output. */
  assistantMention?: boolean;
}

/** +0.05 iff the candidate was mentioned in ≥ 2 turns or in the newest one; at most one boost. */
const isBoosted = (c: SalienceFacts | undefined): boolean =>
  c !== undefined && (c.occurrences >= 2 || c.inNewestTurn);

/**
 * The one rounding rule for confidences shown to people and programs: two decimals, the precision
 * they are defined in (0.85, never the computed 0.8500000000000001). Decisions keep the computed
 * value; every output that prints a confidence rounds it here.
 */
export const roundConfidence = (c: number): number => Math.round(c * 100) / 100;

/** Always recomputed from the arm (never from an incoming confidence), so re-gating is idempotent. */
export function confidenceFor(arm: MatchArm, c: SalienceFacts | undefined): number {
  return Math.min(MAX_CONFIDENCE, ARM_CONFIDENCE[arm] + (isBoosted(c) ? SALIENCE_BOOST : 0));
}

/** Gate: kept unless below `min` by more than the tolerance. */
export const passesGate = (confidence: number, min: number): boolean => confidence >= min - CONFIDENCE_EPSILON;

const ARM_TEXT: Readonly<Record<MatchArm, string>> = {
  alias: 'alias match',
  title: 'exact title match',
  'title-surname': 'surname match',
  'cjk-title': 'exact CJK title/slug match',
  'slug-suffix': 'slug match',
};

/**
 * The rationale template: never any conversation text beyond the matched surface.
 * `windowTurns` = the number of turns given to the core.
 */
export function rationaleFor(arm: MatchArm, display: string, c: SalienceFacts | undefined, windowTurns: number): string {
  const parts = [`${ARM_TEXT[arm]} "${display}"`];
  if (c) {
    if (c.occurrences >= 2) parts.push(`mentioned in ${c.occurrences} of last ${windowTurns} turns`);
    else if (c.inNewestTurn) parts.push('mentioned in the newest turn');
    if (!c.userMention) parts.push(c.assistantMention === false ? 'from tool output' : 'assistant-introduced');
  }
  return parts.join('; ');
}

/** The rationale logged for an ungated pointer (hook and reflex lanes): `<arm> match "<display>"`. */
export const pointerRationale = (arm: MatchArm, display: string): string => `${arm} match "${display}"`;

/** What the volunteer order reads. */
export interface Rankable {
  confidence: number;
  /** First-mention rank of the matched candidate; none → Infinity (last). */
  rank: number;
  slug: string;
  sourcePos: number;
}

/** Confidence descending (within 1e-9 equal), first-mention rank, slug (code units), scope position. */
export function compareRankable(a: Rankable, b: Rankable): number {
  const d = b.confidence - a.confidence;
  if (Math.abs(d) > CONFIDENCE_EPSILON) return d;
  if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
  if (a.slug !== b.slug) return a.slug < b.slug ? -1 : 1;
  return a.sourcePos - b.sourcePos;
}
