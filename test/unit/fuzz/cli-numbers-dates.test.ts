import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDateFlag } from '../../../src/cli/date-flag.js';
import { parseIntegerFlag, parseNumberFlag, parseRangedFlag, parseSessionFlag, parseSourceList, resolveSource } from '../../../src/cli/flags.js';
import { inRange, RANGES } from '../../../src/context/number-ranges.js';
import { UsageError } from '../../../src/errors.js';
import { fuzzRuns, hostileText } from '../../support/fuzz.js';

/** The flag's result, or the error it threw (anything but a UsageError fails the property). */
function outcome<T>(parse: () => T): { ok: true; value: T } | { ok: false } {
  try {
    return { ok: true, value: parse() };
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return { ok: false };
  }
}

/** Number text as people and scripts type it, near and far from every range's edges. */
const numberText = fc.oneof(
  hostileText(30),
  fc.double().map(String),
  fc.integer({ min: -100_000, max: 100_000 }).map(String),
  fc.tuple(fc.constantFrom('', ' ', '+', '-', '0x', '0b', '.', '1e', '00'), fc.nat(40_000), fc.constantFrom('', '.5', '.0', 'e3', 'e-2', ' ', 'x', 'n', '%')).map(([a, n, b]) => `${a}${n}${b}`),
  fc.constantFrom('Infinity', '-Infinity', 'NaN', '1e400', '-0', '0.0000001', '36500', '36501', '5', '6', '0', '1', '1.0', '0.999999999999999999'),
);

describe('CLI number flags, whatever text they get', () => {
  it('accept only finite numbers, and refuse everything else with a usage error', () => {
    fc.assert(
      fc.property(numberText, (text) => {
        const r = outcome(() => parseNumberFlag('--n', text));
        expect(r.ok).toBe(text.trim() !== '' && Number.isFinite(Number(text)));
        if (r.ok) expect(r.value).toBe(Number(text));
      }),
      fuzzRuns(2000),
    );
  });

  it('accept integers only when whole and within the bound', () => {
    fc.assert(
      fc.property(numberText, fc.constantFrom(10, 1000, 2 ** 31 - 1), (text, maxAbs) => {
        const r = outcome(() => parseIntegerFlag('--n', text, maxAbs));
        if (r.ok) {
          expect(Number.isInteger(r.value)).toBe(true);
          expect(Math.abs(r.value!)).toBeLessThanOrEqual(maxAbs);
        } else if (text.trim() !== '' && Number.isInteger(Number(text))) {
          expect(Math.abs(Number(text))).toBeGreaterThan(maxAbs);
        }
      }),
      fuzzRuns(2000),
    );
  });

  it('refuse every number outside a range, never clamp it, and accept every one inside', () => {
    fc.assert(
      fc.property(numberText, fc.constantFrom(...Object.values(RANGES)), (text, range) => {
        const r = outcome(() => parseRangedFlag('--n', text, range));
        const n = text.trim() === '' ? Number.NaN : Number(text);
        expect(r.ok).toBe(inRange(range, n));
        if (r.ok) expect(r.value).toBe(n);
      }),
      fuzzRuns(2000),
    );
  });

  it('take source ids and session ids as the rules say', () => {
    fc.assert(
      fc.property(hostileText(60), (text) => {
        const source = outcome(() => resolveSource(text, {}));
        if (source.ok) expect(source.value).toMatch(/^[a-z0-9-]{1,32}$/);
        const list = outcome(() => parseSourceList('--sources', text));
        if (list.ok) for (const id of list.value) expect(id).toMatch(/^[a-z0-9-]{1,32}$/);
        const session = outcome(() => parseSessionFlag('--session', text));
        expect(session.ok).toBe(text.trim() !== '');
        if (session.ok) expect(session.value).toBe(text.slice(0, 256));
      }),
      fuzzRuns(1000),
    );
  });
});

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const NOW = new Date('2026-12-07T12:00:00Z');

/** Dates near the calendar's edges: day 0, day 31 of short months, Feb 29, hour 24, odd offsets. */
const dateText = fc.oneof(
  hostileText(30),
  fc
    .record({
      y: fc.integer({ min: 0, max: 9999 }),
      m: fc.integer({ min: 0, max: 13 }),
      d: fc.integer({ min: 0, max: 32 }),
      time: fc.option(
        fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.constantFrom('', ':00', ':59.5', ':60'), fc.constantFrom('Z', '+00:00', '-05:30', '+14:00', '+24:00', '')),
        { nil: undefined },
      ),
    })
    .map(({ y, m, d, time }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}${time ? `T${pad(time[0], 2)}:${pad(time[1], 2)}${time[2]}${time[3]}` : ''}`),
);

/** Whether the calendar has this day (proleptic Gregorian, as ISO 8601 reads it). */
const realDay = (y: number, m: number, d: number): boolean => {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
};

describe('CLI date flags, whatever text they get', () => {
  it('accept only real calendar days, never rolled over to the next month, and never a future start', () => {
    fc.assert(
      fc.property(dateText, fc.boolean(), (text, end) => {
        const r = outcome(() => parseDateFlag('--since', text, NOW, { end }));
        if (!r.ok) return;
        const ms = r.value!;
        expect(Number.isFinite(ms)).toBe(true);
        expect(ms).toBeLessThanOrEqual(NOW.getTime());
        const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
        expect(day).not.toBeNull();
        expect(realDay(Number(day![1]), Number(day![2]), Number(day![3]))).toBe(true);
        if (text.trim().length === 10 && ms < NOW.getTime()) expect(new Date(ms).toISOString().slice(0, 10)).toBe(text.trim());
      }),
      fuzzRuns(3000),
    );
  });

  it('refuse a day that does not exist even with a time of day', () => {
    for (const text of ['2026-02-31T10:00Z', '2026-04-31T00:00:00+02:00', '2025-02-29T12:00Z', '2026-00-10T10:00Z']) {
      expect(() => parseDateFlag('--since', text, NOW)).toThrow(UsageError);
    }
    expect(parseDateFlag('--since', '2024-02-29T12:00Z', NOW)).toBe(Date.parse('2024-02-29T12:00:00Z'));
  });
});
