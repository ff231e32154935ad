import { normalizeMaxPointers } from '../context/knobs.js';
import { inRange, RANGES, rangeText, type NumberRange } from '../context/number-ranges.js';
import { parseTtl } from './ttl.js';

export type ConfigValue = boolean | number | string;

/** What a stored value means in use: the value, and whether it was valid as stored. */
export interface EffectiveValue {
  value: ConfigValue | null;
  /** False when a stored value is out of range and a safe value is used instead. */
  valid: boolean;
}

export interface ConfigKeySpec {
  key: string;
  /** Default when unset; null = unset. */
  default: ConfigValue | null;
  /** What `config set` accepts, for messages. */
  allowed: string;
  /** `config set` input → stored value, or undefined when invalid. */
  parse(raw: string): ConfigValue | undefined;
  /** Stored value (absent = undefined) → value in use. */
  effective(stored: unknown): EffectiveValue;
}

const TRUE = /^(true|1|yes|on)$/i;
const FALSE = /^(false|0|no|off)$/i;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

const parseBoolean = (raw: string): boolean | undefined => (TRUE.test(raw.trim()) ? true : FALSE.test(raw.trim()) ? false : undefined);
const parseNumber = (raw: string): number | undefined => (NUMBER.test(raw.trim()) ? Number(raw.trim()) : undefined);
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const unset = (x: unknown): boolean => x === undefined;
const BOOLEAN_TEXT = 'true or false (also 1/0, yes/no, on/off)';

/** A boolean whose invalid stored values fall back to `fallback`. */
function booleanKey(key: string, dflt: boolean, fallback: boolean = dflt): ConfigKeySpec {
  return {
    key,
    default: dflt,
    allowed: BOOLEAN_TEXT,
    parse: parseBoolean,
    effective: (s) => (unset(s) ? { value: dflt, valid: true } : typeof s === 'boolean' ? { value: s, valid: true } : { value: fallback, valid: false }),
  };
}

/** A push-context switch: off only if exactly `false`. */
function switchKey(key: string): ConfigKeySpec {
  return { ...booleanKey(key, true), effective: (s) => ({ value: s !== false, valid: unset(s) || typeof s === 'boolean' }) };
}

function enumKey(key: string, values: readonly string[], dflt: string, fallback: string = dflt): ConfigKeySpec {
  return {
    key,
    default: dflt,
    allowed: `one of ${values.join(', ')}`,
    parse: (raw) => (values.includes(raw.trim().toLowerCase()) ? raw.trim().toLowerCase() : undefined),
    effective: (s) =>
      unset(s) ? { value: dflt, valid: true } : typeof s === 'string' && values.includes(s) ? { value: s, valid: true } : { value: fallback, valid: false },
  };
}

function positiveIntegerKey(key: string, dflt: number | null, allowed = 'a whole number of at least 1'): ConfigKeySpec {
  return {
    key,
    default: dflt,
    allowed,
    parse: (raw) => {
      const n = parseNumber(raw);
      return n !== undefined && Number.isInteger(n) && n >= 1 ? n : undefined;
    },
    effective: (s) =>
      unset(s) ? { value: dflt, valid: true } : Number.isInteger(s) && (s as number) >= 1 ? { value: s as number, valid: true } : { value: dflt, valid: false },
  };
}

/** `config set` accepts only numbers in `range` (the same ranges as the CLI flags and MCP parameters). */
function parseInRange(range: NumberRange): (raw: string) => number | undefined {
  return (raw) => {
    const n = parseNumber(raw);
    return n !== undefined && inRange(range, n) ? n : undefined;
  };
}

/**
 * A day count: a stored count beyond the range (written before it existed, or with --force)
 * keeps as much as the range allows rather than falling back to a shorter default.
 */
function daysKey(key: string, dflt: number): ConfigKeySpec {
  const range = RANGES.days;
  return {
    key,
    default: dflt,
    allowed: rangeText(range),
    parse: parseInRange(range),
    effective: (s) => {
      if (unset(s)) return { value: dflt, valid: true };
      if (!Number.isInteger(s) || (s as number) < range.min) return { value: dflt, valid: false };
      return (s as number) > range.max ? { value: range.max, valid: false } : { value: s as number, valid: true };
    },
  };
}

const DEFAULT_CAPTURE_EXCLUDE = 'secrets, credentials, access tokens';
const TTL_CHECK_EPOCH = new Date(0);

export const CONFIG_KEYS: readonly ConfigKeySpec[] = [
  booleanKey('memory.core.enabled', false),
  {
    key: 'memory.core.max_chars',
    default: 4000,
    allowed: 'a whole number from 500 to 6000',
    parse: (raw) => {
      const n = parseNumber(raw);
      return n !== undefined && Number.isInteger(n) && n >= 500 && n <= 6000 ? n : undefined;
    },
    // The safe value keeps working: clamp numbers, fall back to the default otherwise.
    effective: (s) => {
      if (unset(s)) return { value: 4000, valid: true };
      if (!isNumber(s)) return { value: 4000, valid: false };
      const clamped = Math.min(6000, Math.max(500, Math.floor(s)));
      return { value: clamped, valid: clamped === s };
    },
  },
  enumKey('memory.core.remote_edit', ['allow', 'notify', 'refuse'], 'notify'),
  booleanKey('memory.pressure.enabled', true),
  {
    key: 'memory.pressure.warn_ratio',
    default: 0.8,
    allowed: 'a number greater than 0 and less than 1',
    parse: (raw) => {
      const n = parseNumber(raw);
      return n !== undefined && n > 0 && n < 1 ? n : undefined;
    },
    effective: (s) => (unset(s) ? { value: 0.8, valid: true } : isNumber(s) && s > 0 && s < 1 ? { value: s, valid: true } : { value: 0.8, valid: false }),
  },
  positiveIntegerKey('memory.pressure.context_window', null, 'a whole number of tokens of at least 1'),
  // An unreadable visibility falls back to private: the safe side for what gets captured.
  enumKey('memory.capture.visibility', ['world', 'private'], 'world', 'private'),
  {
    key: 'memory.capture.ttl',
    default: null,
    allowed: 'a remember ttl such as 30d, 12h, 45m, 90s, "30 days" or an ISO date (2026-05-01)',
    parse: (raw) => (parseTtl(raw, TTL_CHECK_EPOCH).ok ? raw.trim() : undefined),
    effective: (s) =>
      unset(s) ? { value: null, valid: true } : typeof s === 'string' && parseTtl(s, TTL_CHECK_EPOCH).ok ? { value: s, valid: true } : { value: null, valid: false },
  },
  {
    key: 'memory.capture.exclude',
    default: DEFAULT_CAPTURE_EXCLUDE,
    allowed: 'non-empty text',
    parse: (raw) => (raw.trim() === '' ? undefined : raw.trim()),
    effective: (s) =>
      unset(s)
        ? { value: DEFAULT_CAPTURE_EXCLUDE, valid: true }
        : typeof s === 'string' && s.trim() !== ''
          ? { value: s, valid: true }
          : { value: DEFAULT_CAPTURE_EXCLUDE, valid: false },
  },
  daysKey('memory.volunteer.retention_days', 90),
  // Minutes without a request after which a serve started automatically stops itself.
  positiveIntegerKey('memory.serve.idle_minutes', 30),
  switchKey('retrieval.reflex.enabled'),
  {
    key: 'retrieval.reflex.window_turns',
    default: 4,
    allowed: rangeText(RANGES.windowTurns),
    parse: parseInRange(RANGES.windowTurns),
    // A number ≥ 1 is floored (6.9 → 6); anything else means 4.
    effective: (s) => (unset(s) ? { value: 4, valid: true } : isNumber(s) && s >= 1 ? { value: Math.floor(s), valid: true } : { value: 4, valid: false }),
  },
  {
    key: 'retrieval.reflex.max_pointers',
    default: 3,
    allowed: 'a whole number of at least 1',
    parse: positiveIntegerKey('retrieval.reflex.max_pointers', 3).parse,
    effective: (s) => ({ value: normalizeMaxPointers(s), valid: unset(s) || (typeof s === 'number' && s > 0) }),
  },
  switchKey('retrieval.reflex.lexical_arms'),
  switchKey('retrieval.reflex.gazetteer'),
  // The learning gate: habituation and per-arm calibration from the feedback log. Off by default.
  booleanKey('retrieval.reflex.learning', false),
  {
    key: 'retrieval.reflex.tool_min_confidence',
    default: 0.8,
    allowed: rangeText(RANGES.minConfidence),
    parse: parseInRange(RANGES.minConfidence),
    effective: (s) => (unset(s) ? { value: 0.8, valid: true } : isNumber(s) && s >= 0 && s <= 1 ? { value: s, valid: true } : { value: 0.8, valid: false }),
  },
  {
    key: 'retrieval.reflex.tool_max_pages',
    default: 2,
    allowed: rangeText(RANGES.maxPages),
    parse: parseInRange(RANGES.maxPages),
    effective: (s) => (unset(s) ? { value: 2, valid: true } : Number.isInteger(s) && (s as number) >= 1 && (s as number) <= 5 ? { value: s as number, valid: true } : { value: 2, valid: false }),
  },
];

const BY_KEY = new Map(CONFIG_KEYS.map((k) => [k.key, k]));

/**
 * Keys first named in one flat style, now spelled like every other key (dotted, grouped by
 * area). The old spelling is still read from config files and accepted by `config get/set`,
 * which tell the user the new one.
 */
export const LEGACY_KEYS: ReadonlyMap<string, string> = new Map([
  ['retrieval_reflex', 'retrieval.reflex.enabled'],
  ['retrieval_reflex_window_turns', 'retrieval.reflex.window_turns'],
  ['retrieval_reflex_max_pointers', 'retrieval.reflex.max_pointers'],
  ['retrieval_reflex_lexical_arms', 'retrieval.reflex.lexical_arms'],
  ['retrieval_reflex_gazetteer', 'retrieval.reflex.gazetteer'],
  ['retrieval_reflex_tool_min_confidence', 'retrieval.reflex.tool_min_confidence'],
  ['retrieval_reflex_tool_max_pages', 'retrieval.reflex.tool_max_pages'],
]);

/** The spec of a key under its current name. */
export const configKeySpec = (key: string): ConfigKeySpec | undefined => BY_KEY.get(key);

/** Where a key's stored value was found: its own name (flat or nested), or its old spelling. */
export interface StoredLookup {
  value: unknown;
  /** The old spelling the value was stored under, when it was. */
  legacy?: string;
}

/** A stored value: flat `"a.b.c"` keys first, nested objects next, then the key's old spelling. */
export function lookupStoredValue(config: Record<string, unknown>, key: string): StoredLookup {
  if (Object.hasOwn(config, key)) return { value: config[key] };
  let node: unknown = config;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) {
      node = undefined;
      break;
    }
    node = (node as Record<string, unknown>)[part];
  }
  if (node !== undefined) return { value: node };
  for (const [legacy, current] of LEGACY_KEYS) {
    if (current === key && Object.hasOwn(config, legacy)) return { value: config[legacy], legacy };
  }
  return { value: undefined };
}

export const storedConfigValue = (config: Record<string, unknown>, key: string): unknown => lookupStoredValue(config, key).value;
