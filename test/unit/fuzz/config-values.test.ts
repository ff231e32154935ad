import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, LEGACY_KEYS } from '../../../src/core-memory/config-keys.js';
import { formatConfigValue, parseConfigSet } from '../../../src/core-memory/config-set.js';
import { RANGES } from '../../../src/context/number-ranges.js';
import { InvalidConfigValueError, UnknownConfigKeyError } from '../../../src/core-memory/errors.js';
import { fuzzRuns, hostileText } from '../../support/fuzz.js';

const KNOWN = [...CONFIG_KEYS.map((k) => k.key), ...LEGACY_KEYS.keys()];

/** Values as typed after `config set KEY`: numbers around every key's bounds, booleans, enums, TTLs, junk. */
const rawValue = fc.oneof(
  hostileText(40),
  fc.double().map(String),
  fc.integer({ min: -10, max: 40_000 }).map(String),
  fc.constantFrom(
    '0', '1', '2', '3', '5', '6', '499', '500', '6000', '6001', '36500', '36501', '0.5', '1.0', '1.5', '0.9999', '1e400', '-1e400', '1e-400', 'Infinity', 'NaN',
    '0x10', '1_000', ' 4 ', '4.', '.5', '+3', '-0', 'true', 'FALSE', 'Yes', 'off', 'on ', 'allow', 'NOTIFY', 'refuse', 'world', 'Private', '30d', '12h', '45m',
    '90s', '30 days', '2026-05-01', '2026-02-31', '0d', '-1d', '', ' ', 'null',
  ),
);

describe('config set values, whatever text they get', () => {
  it('are stored only when the key reads them back as valid and unchanged; otherwise refused with invalid_config_value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...KNOWN), rawValue, (key, raw) => {
        let parsed: { key: string; value: unknown };
        try {
          parsed = parseConfigSet(key, raw);
        } catch (err) {
          expect(err).toBeInstanceOf(InvalidConfigValueError);
          return;
        }
        const spec = CONFIG_KEYS.find((k) => k.key === parsed.key)!;
        expect(spec).toBeDefined();
        // What is stored is what is used: no clamp, floor or fallback applies to an accepted value.
        expect(spec.effective(parsed.value)).toEqual({ value: parsed.value, valid: true });
        expect(['boolean', 'number', 'string']).toContain(typeof parsed.value);
        if (typeof parsed.value === 'number') expect(Number.isFinite(parsed.value)).toBe(true);
        // It survives the JSON of config.json.
        expect(JSON.parse(JSON.stringify(parsed.value))).toEqual(parsed.value);
        expect(formatConfigValue(parsed.value)).not.toBe('');
      }),
      fuzzRuns(3000),
    );
  });

  it('refuse numbers outside each ranged key, never clamping them', () => {
    const ranged: Array<[string, number, number]> = [
      ['memory.core.max_chars', 500, 6000],
      ['memory.volunteer.retention_days', RANGES.days.min, RANGES.days.max],
      ['retrieval.reflex.window_turns', RANGES.windowTurns.min, RANGES.windowTurns.max],
      ['retrieval.reflex.tool_max_pages', RANGES.maxPages.min, RANGES.maxPages.max],
      ['retrieval.reflex.tool_min_confidence', 0, 1],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...ranged), fc.double({ min: -1e6, max: 1e6, noNaN: true }), ([key, min, max], n) => {
        const accept = (): unknown => parseConfigSet(key, String(n)).value;
        if (n < min || n > max) expect(accept).toThrow(InvalidConfigValueError);
        else if (Number.isInteger(n) || key.endsWith('min_confidence')) expect(accept()).toBe(Number(String(n)));
      }),
      fuzzRuns(2000),
    );
  });

  it('refuse unknown keys with unknown_config_key, even with --force', () => {
    fc.assert(
      fc.property(hostileText(40), rawValue, fc.boolean(), (key, raw, force) => {
        fc.pre(!KNOWN.includes(key));
        expect(() => parseConfigSet(key, raw, { force })).toThrow(UnknownConfigKeyError);
      }),
      fuzzRuns(500),
    );
  });
});
