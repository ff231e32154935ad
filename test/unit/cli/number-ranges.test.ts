// Numbers from outside (CLI flags, MCP parameters, `config set`) are refused out of range, never
// replaced by a default or clamped (issue: day counts and knobs; stats --until in the future).
import { describe, expect, it } from 'vitest';
import { parseDateFlag } from '../../../src/cli/date-flag.js';
import { parseRangedFlag } from '../../../src/cli/flags.js';
import { parseConfigSet } from '../../../src/core-memory/config-set.js';
import { memorySettings, outOfRangeSettings } from '../../../src/core-memory/memory-settings.js';
import { MAX_DAYS, RANGES } from '../../../src/context/number-ranges.js';
import { UsageError } from '../../../src/errors.js';
import { runOperation, type OpContext } from '../../../src/ops/registry.js';

const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected a usage error');
};

describe('CLI number flags', () => {
  it.each([
    ['--min-confidence', '2', RANGES.minConfidence, 'a number from 0 to 1'],
    ['--min-confidence', '-0.1', RANGES.minConfidence, 'a number from 0 to 1'],
    ['--max-pages', '0', RANGES.maxPages, 'a whole number from 1 to 5'],
    ['--max-pages', '99', RANGES.maxPages, 'a whole number from 1 to 5'],
    ['--max-pages', '2.5', RANGES.maxPages, 'a whole number from 1 to 5'],
    ['--window-turns', '100', RANGES.windowTurns, 'a whole number from 1 to 64'],
    ['--window-turns', '0', RANGES.windowTurns, 'a whole number from 1 to 64'],
    ['--ttl-days', '100000000', RANGES.days, `a whole number from 1 to ${MAX_DAYS}`],
    ['--ttl-days', '1.5', RANGES.days, `a whole number from 1 to ${MAX_DAYS}`],
    ['--days', '99999999', RANGES.days, `a whole number from 1 to ${MAX_DAYS}`],
    ['--days', '0', RANGES.days, `a whole number from 1 to ${MAX_DAYS}`],
  ])('%s %s is a usage error naming the flag and the range', (flag, value, range, allowed) => {
    expect(usage(() => parseRangedFlag(flag, value, range))).toBe(`${flag} expects ${allowed}, got ${JSON.stringify(value)}`);
  });

  it('accepts the bounds and leaves an absent flag absent', () => {
    expect(parseRangedFlag('--min-confidence', '0', RANGES.minConfidence)).toBe(0);
    expect(parseRangedFlag('--min-confidence', '1', RANGES.minConfidence)).toBe(1);
    expect(parseRangedFlag('--max-pages', '5', RANGES.maxPages)).toBe(5);
    expect(parseRangedFlag('--window-turns', '64', RANGES.windowTurns)).toBe(64);
    expect(parseRangedFlag('--ttl-days', String(MAX_DAYS), RANGES.days)).toBe(MAX_DAYS);
    expect(parseRangedFlag('--days', undefined, RANGES.days)).toBeUndefined();
    expect(usage(() => parseRangedFlag('--days', 'abc', RANGES.days))).toBe('--days expects a number, got "abc"');
  });

  it('the longest day count still gives a date', () => {
    expect(new Date(Date.now() - MAX_DAYS * 86_400_000).toISOString()).toMatch(/^\d{4}-/);
  });
});

describe('MCP and `call` parameters', () => {
  // Parameters are checked before the operation touches its context.
  const refusal = (params: unknown) => runOperation({} as OpContext, 'volunteer_context', params).then(() => null, (err: Error & { code?: string }) => [err.code, err.message]);

  it.each([
    [{ window: 'user: hi', min_confidence: 2 }, 'volunteer_context: min_confidence: must be a number from 0 to 1'],
    [{ window: 'user: hi', max_pages: 0 }, 'volunteer_context: max_pages: must be a whole number from 1 to 5'],
    [{ window: 'user: hi', window_turns: 100 }, 'volunteer_context: window_turns: must be a whole number from 1 to 64'],
    [{ stats: true, days: 99_999_999 }, `volunteer_context: days: must be a whole number from 1 to ${MAX_DAYS}`],
    [{ stats: true, days: 1.5 }, `volunteer_context: days: must be a whole number from 1 to ${MAX_DAYS}`],
  ])('%j → invalid_params', async (params, message) => {
    expect(await refusal(params)).toEqual(['invalid_params', message]);
  });
});

describe('config: memory.volunteer.retention_days', () => {
  it('config set refuses a count beyond the range', () => {
    expect(() => parseConfigSet('memory.volunteer.retention_days', '1e9')).toThrow(
      `memory.volunteer.retention_days must be a whole number from 1 to ${MAX_DAYS}, got "1e9"`,
    );
    expect(parseConfigSet('memory.volunteer.retention_days', String(MAX_DAYS)).value).toBe(MAX_DAYS);
  });

  it('a stored count beyond the range (an older config) keeps the most it may, and doctor names it', () => {
    const config = { 'memory.volunteer.retention_days': 1e9 };
    expect(memorySettings(config).volunteerRetentionDays).toBe(MAX_DAYS);
    expect(outOfRangeSettings(config)).toEqual([expect.objectContaining({ key: 'memory.volunteer.retention_days', used: MAX_DAYS })]);
  });

  it('the knobs of the tool reflex and the reflex window are refused out of range too', () => {
    expect(() => parseConfigSet('retrieval_reflex_window_turns', '100')).toThrow('must be a whole number from 1 to 64');
    expect(() => parseConfigSet('retrieval_reflex_tool_min_confidence', '2')).toThrow('must be a number from 0 to 1');
    expect(() => parseConfigSet('retrieval_reflex_tool_max_pages', '6')).toThrow('must be a whole number from 1 to 5');
  });
});

describe('date flags', () => {
  const now = new Date('2026-06-15T12:00:00Z');

  it('an end in the future means up to now', () => {
    expect(parseDateFlag('--until', '2999-01-01', now, { end: true })).toBe(now.getTime());
    expect(parseDateFlag('--until', '2026-06-01', now, { end: true })).toBe(Date.parse('2026-06-01T00:00:00Z'));
  });

  it('a start in the future is still refused: nothing could match', () => {
    expect(usage(() => parseDateFlag('--since', '2999-01-01', now))).toMatch(/^--since 2999-01-01 is in the future/);
  });
});
