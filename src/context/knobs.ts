/** Constants and knob normalisation of the volunteer decision. */

export const DEFAULT_MIN_CONFIDENCE = 0.7;
const DEFAULT_MAX_PAGES = 3;
export const MAX_PAGES_CAP = 5;
const DEFAULT_WINDOW_TURNS = 4;
export const MAX_WINDOW_TURNS = 64;
const DEFAULT_MAX_POINTERS = 3;
/** Confidences are compared with this tolerance (0.9 + 0.05 = 0.9500000000000001). */
export const CONFIDENCE_EPSILON = 1e-9;

/** `min_confidence`: a number in [0, 1], else 0.7 (NaN, −1, 5 → 0.7). */
export function normalizeMinConfidence(x: unknown): number {
  return typeof x === 'number' && x >= 0 && x <= 1 ? x : DEFAULT_MIN_CONFIDENCE;
}

/** `max_pages`: not a finite number or < 1 → 3, else min(floor(n), 5). */
export function normalizeMaxPages(x: unknown): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 1) return DEFAULT_MAX_PAGES;
  return Math.min(Math.floor(x), MAX_PAGES_CAP);
}

/**
 * Window turns: min(64, max(1, floor(n))) — 0 and negatives → 1, 999999 → 64. A value that is
 * not a number, or NaN, gives `fallback` (the configured default).
 */
export function clampWindowTurns(x: unknown, fallback: number = DEFAULT_WINDOW_TURNS): number {
  const n = typeof x === 'number' && !Number.isNaN(x) ? x : fallback;
  return Math.min(MAX_WINDOW_TURNS, Math.max(1, Math.floor(n)));
}

/** `retrieval.reflex.max_pointers`: used if a number > 0 (floored, at least 1), else 3. */
export function normalizeMaxPointers(x: unknown): number {
  if (typeof x !== 'number' || !(x > 0)) return DEFAULT_MAX_POINTERS;
  return Number.isFinite(x) ? Math.max(1, Math.floor(x)) : Number.MAX_SAFE_INTEGER;
}
