import { UsageError } from '../errors.js';

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A date flag: `YYYY-MM-DD` (the start of that UTC day) or an ISO 8601 time with an offset.
 * Returns ms since the epoch. A start in the future is a usage error (nothing could match); an
 * end in the future (`end: true`) means everything up to now, so it is read as now.
 */
export function parseDateFlag(flag: string, value: string | undefined, now: Date = new Date(), options: { end?: boolean } = {}): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const ms = DAY_ONLY.test(text) ? Date.parse(`${text}T00:00:00Z`) : DATE_TIME.test(text) ? Date.parse(text) : Number.NaN;
  // Date.parse rolls 2026-02-31 over to March, with or without a time: the day must read back as written.
  const day = text.slice(0, 10);
  const valid = Number.isFinite(ms) && new Date(Date.parse(`${day}T00:00:00Z`)).toISOString().slice(0, 10) === day;
  if (!valid) throw new UsageError(`${flag} expects a date (YYYY-MM-DD) or an ISO 8601 time, got ${JSON.stringify(value)}`);
  if (ms > now.getTime() && options.end) return now.getTime();
  if (ms > now.getTime()) throw new UsageError(`${flag} ${text} is in the future (now ${now.toISOString()}): nothing could match`);
  return ms;
}

export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
