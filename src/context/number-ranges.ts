import { z } from 'zod';
import { MAX_PAGES_CAP, MAX_WINDOW_TURNS } from './knobs.js';

/**
 * The accepted range of a number given from outside (CLI flag, MCP parameter, `config set`).
 * A value outside it is refused where it enters, never replaced by a default or clamped: a
 * caller who asked for something else must hear that it was not done.
 */
export interface NumberRange {
  min: number;
  max: number;
  integer: boolean;
}

/**
 * Day counts stay within a century: `now − days` must remain a date every store can hold
 * (JavaScript dates end 273 790 years out, PostgreSQL timestamps 4713 BC).
 */
export const MAX_DAYS = 36_500;

export const RANGES = {
  minConfidence: { min: 0, max: 1, integer: false },
  maxPages: { min: 1, max: MAX_PAGES_CAP, integer: true },
  windowTurns: { min: 1, max: MAX_WINDOW_TURNS, integer: true },
  days: { min: 1, max: MAX_DAYS, integer: true },
} as const satisfies Record<string, NumberRange>;

/** What a range accepts, for messages: `a whole number from 1 to 5`, `a number from 0 to 1`. */
export const rangeText = (r: NumberRange): string => `${r.integer ? 'a whole number' : 'a number'} from ${r.min} to ${r.max}`;

export const inRange = (r: NumberRange, n: number): boolean =>
  Number.isFinite(n) && n >= r.min && n <= r.max && (!r.integer || Number.isInteger(n));

/** A zod number in the range (MCP schemas advertise its bounds; anything else is invalid_params). */
export function rangedNumber(r: NumberRange): z.ZodNumber {
  const message = `must be ${rangeText(r)}`;
  const n = z.number({ message }).min(r.min, { message }).max(r.max, { message });
  return r.integer ? n.int({ message }) : n;
}
