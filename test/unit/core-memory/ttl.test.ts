import { describe, expect, it } from 'vitest';
import { parseTtl } from '../../../src/core-memory/ttl.js';

const now = new Date('2026-04-07T12:00:00.000Z');
const until = (ttl: string) => {
  const r = parseTtl(ttl, now);
  if (!r.ok) throw new Error(r.message);
  return r.valid_until;
};

describe('fact ttl', () => {
  it.each([
    ['30d', '2026-05-07T12:00:00Z'],
    ['12h', '2026-04-08T00:00:00Z'],
    ['45m', '2026-04-07T12:45:00Z'],
    ['90s', '2026-04-07T12:01:30Z'],
    ['30 days', '2026-05-07T12:00:00Z'],
    ['1 day', '2026-04-08T12:00:00Z'],
    ['2 hours', '2026-04-07T14:00:00Z'],
    ['5 minutes', '2026-04-07T12:05:00Z'],
    ['10 seconds', '2026-04-07T12:00:10Z'],
    ['2w', '2026-04-21T12:00:00Z'],
    ['3 HRS', '2026-04-07T15:00:00Z'],
  ])('%s → %s', (ttl, expected) => {
    expect(until(ttl)).toBe(expected);
  });

  it('accepts ISO dates as given and normalises date-times to UTC', () => {
    expect(until('2026-05-01')).toBe('2026-05-01');
    expect(until('2026-05-01T10:00:00+02:00')).toBe('2026-05-01T08:00:00Z');
    expect(until('2026-05-01T10:00:00+0200')).toBe('2026-05-01T08:00:00Z');
    expect(until('2026-05-01T10:00Z')).toBe('2026-05-01T10:00:00Z');
    expect(until('2026-05-01T10:00:00')).toBe('2026-05-01T10:00:00Z');
  });

  it('refuses ISO durations with a hint', () => {
    const r = parseTtl('P30D', now);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message).toContain('ISO 8601 duration');
      expect(r.message).toContain('30d');
    }
    expect(parseTtl('PT12H', now).ok).toBe(false);
  });

  it.each(['', '0d', '-3d', '1.5h', '3 months', '1y', 'soon', '2026-02-30', '2026-13-01T00:00:00Z', 'd30'])('refuses %j', (ttl) => {
    expect(parseTtl(ttl, now).ok).toBe(false);
  });
});
