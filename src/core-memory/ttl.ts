/**
 * `remember` ttl values: a positive whole duration (`30d`, `12h`, `45m`, `90s`, `2w`, or
 * spelled out: `30 days`, `1 hour`) or an ISO 8601 date / date-time. ISO durations (`P30D`)
 * are refused with a hint; months and years are refused because their length is ambiguous.
 */

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const UNIT_ALIASES: Record<string, keyof typeof UNIT_MS> = {
  s: 's', sec: 's', secs: 's', second: 's', seconds: 's',
  m: 'm', min: 'm', mins: 'm', minute: 'm', minutes: 'm',
  h: 'h', hr: 'h', hrs: 'h', hour: 'h', hours: 'h',
  d: 'd', day: 'd', days: 'd',
  w: 'w', wk: 'w', wks: 'w', week: 'w', weeks: 'w',
};
const DURATION = /^(\d+)\s*([a-z]+)$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const EXAMPLES = 'use 30d, 12h, 45m, 90s, "30 days", or an ISO date such as 2026-05-01';

export type TtlResult = { ok: true; valid_until: string } | { ok: false; message: string };

function validCalendarDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Parses a ttl relative to `now`. `valid_until` is the ISO date as given for a date, or a
 * UTC date-time without milliseconds (`2026-05-01T12:00:00Z`) otherwise.
 */
export function parseTtl(input: string, now: Date): TtlResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: `ttl must not be empty; ${EXAMPLES}` };
  if (/^P(?=\d|T\d)/i.test(text)) {
    return { ok: false, message: `ttl "${text}" is an ISO 8601 duration, which is not accepted; ${EXAMPLES}` };
  }
  const duration = DURATION.exec(text);
  if (duration) {
    const unit = UNIT_ALIASES[duration[2].toLowerCase()];
    if (!unit) return { ok: false, message: `ttl "${text}" has an unknown unit; ${EXAMPLES}` };
    const amount = Number(duration[1]);
    if (amount <= 0) return { ok: false, message: `ttl "${text}" must be longer than zero; ${EXAMPLES}` };
    const until = new Date(now.getTime() + amount * UNIT_MS[unit]);
    if (!Number.isFinite(until.getTime())) return { ok: false, message: `ttl "${text}" is too long` };
    return { ok: true, valid_until: until.toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }
  const date = ISO_DATE.exec(text);
  if (date) {
    if (!validCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) {
      return { ok: false, message: `ttl "${text}" is not a calendar date` };
    }
    return { ok: true, valid_until: text };
  }
  const datetime = ISO_DATETIME.exec(text);
  if (datetime) {
    // A date-time without an offset is read as UTC, like every other time in the brain.
    const normalised = datetime[4] === undefined ? `${text}Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
    const at = Date.parse(normalised);
    if (!validCalendarDate(Number(datetime[1]), Number(datetime[2]), Number(datetime[3])) || !Number.isFinite(at)) {
      return { ok: false, message: `ttl "${text}" is not a valid date-time` };
    }
    return { ok: true, valid_until: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }
  return { ok: false, message: `ttl "${text}" is not understood; ${EXAMPLES}` };
}
