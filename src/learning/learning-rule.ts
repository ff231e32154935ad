import type { MatchArm } from '../domain/event-schemas.js';

/**
 * What the log says about one page of one source: the sessions it took part in (volunteered
 * there, or read there without being volunteered) and how many of them read it.
 */
export interface PageOutcomes {
  sessions: number;
  used: number;
}

/** What the log says about one arm: sessions a page was volunteered in by it, and read in that session afterwards. */
export interface ArmOutcomes {
  volunteered: number;
  used: number;
}

/**
 * The learned state the decision reads: a snapshot taken before the decision, never a live
 * query, so the decision stays a pure function of its inputs.
 */
export interface LearnedSnapshot {
  page(sourceId: string, slug: string): PageOutcomes | undefined;
  arm(arm: MatchArm): ArmOutcomes | undefined;
  /** Every arm together: the brain's own session precision. */
  readonly total: ArmOutcomes;
  /** The sessions of every page read at least once, summed: how often the pages agents do open are opened. */
  readonly readPages: PageOutcomes;
}

/** A page is lowered only after this many sessions in which it was not read. */
export const MIN_UNUSED_SESSIONS = 3;
/** One-sided 95 % (z for the Wilson upper bound of a page's use rate). */
const Z = 1.645;
/** How far an arm's calibration may move its confidences. */
const CALIBRATION_MIN = 0.9;
const CALIBRATION_MAX = 1.1;

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** The Wilson score interval of a rate after `used` of `n`: the rates still plausible given the evidence. */
export function wilsonInterval(used: number, n: number): { lower: number; upper: number } {
  if (n <= 0) return { lower: 0, upper: 1 };
  const p = used / n;
  const z2 = Z * Z;
  const centre = p + z2 / (2 * n);
  const spread = Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const scale = 1 + z2 / n;
  return { lower: Math.max(0, (centre - spread) / scale), upper: Math.min(1, (centre + spread) / scale) };
}

/**
 * The highest use rate still plausible after `used` of `n` sessions. A page seen in few sessions
 * keeps a high bound, so it is not judged on one unlucky session.
 */
const wilsonUpper = (used: number, n: number): number => wilsonInterval(used, n).upper;

/** The brain's session precision with a uniform prior (one read, one unread), so an empty log gives 0.5. */
const brainPrecision = (total: ArmOutcomes): number => (total.used + 1) / (total.volunteered + 2);

/**
 * How often a page that agents do open is opened, per session it takes part in (uniform prior).
 * The yardstick of habituation: pages never opened are left out, so a brain full of them does
 * not lower the bar they are measured against.
 */
const readPageRate = (read: PageOutcomes): number => (read.used + 1) / (read.sessions + 2);

/**
 * Habituation: a page that the log shows is read far less often than the pages agents do read
 * loses confidence in proportion (the upper bound of its use rate over their rate); reads raise
 * the bound again, and the confidence comes back.
 */
export function habituation(page: PageOutcomes | undefined, reference: number): number {
  if (!page || page.sessions - page.used < MIN_UNUSED_SESSIONS) return 1;
  return Math.min(1, wilsonUpper(page.used, page.sessions) / reference);
}

/**
 * Per-arm calibration: when an arm's session precision is credibly above or below the brain's
 * (its whole interval on one side), its confidences move by the nearest plausible ratio, within
 * [0.9, 1.1]; an arm whose precision could be the brain's keeps its confidences.
 */
export function armCalibration(arm: ArmOutcomes | undefined, reference: number): number {
  if (!arm || arm.volunteered === 0) return 1;
  const { lower, upper } = wilsonInterval(arm.used, arm.volunteered);
  const ratio = upper < reference ? upper / reference : lower > reference ? lower / reference : 1;
  return clamp(ratio, CALIBRATION_MIN, CALIBRATION_MAX);
}

export interface LearnedConfidence {
  /** The factor applied to the static confidence (1: unchanged). */
  factor: number;
  /** Why it moved, for the rationale; empty when it did not. */
  notes: string[];
}

/** Factors this close to 1 are no change (floating-point noise, not evidence). */
const UNCHANGED = 1e-6;
const percent = (x: number): string => `${Math.round(x * 100)}%`;

/** How the learned state moves the confidence of `arm`'s match of a page, and the words that say so. */
export function learnedConfidence(snapshot: LearnedSnapshot, sourceId: string, slug: string, arm: MatchArm): LearnedConfidence {
  const reference = brainPrecision(snapshot.total);
  const notes: string[] = [];
  const page = snapshot.page(sourceId, slug);
  const h = habituation(page, readPageRate(snapshot.readPages));
  if (h < 1 - UNCHANGED) notes.push(`confidence lowered: volunteered in ${page!.sessions} sessions, used in ${page!.used}`);
  const armStats = snapshot.arm(arm);
  const c = armCalibration(armStats, reference);
  if (Math.abs(c - 1) > UNCHANGED) {
    notes.push(`${arm} arm ×${c.toFixed(2)}: used in ${percent(armStats!.used / armStats!.volunteered)} of its sessions, ${percent(reference)} overall`);
  }
  return { factor: h * c, notes };
}
