import { CONFIG_KEYS, configKeySpec, LEGACY_KEYS, storedConfigValue, type ConfigKeySpec, type ConfigValue } from './config-keys.js';
import { InvalidConfigValueError, UnknownConfigKeyError } from './errors.js';

/** The spec of a known key, under its current name or its old spelling; `unknown_config_key` otherwise. */
export function requireConfigKey(key: string): ConfigKeySpec {
  const spec = configKeySpec(LEGACY_KEYS.get(key) ?? key);
  if (!spec) {
    throw new UnknownConfigKeyError(`unknown configuration key "${key}"; known keys: ${CONFIG_KEYS.map((k) => k.key).join(', ')}`, key);
  }
  return spec;
}

/**
 * `--force` stores without validation (recovery and testing): JSON scalars keep their type
 * (`9000` → number, `true` → boolean, `null`), anything else is stored as text.
 */
export function forcedConfigValue(raw: string): unknown {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || ['number', 'boolean', 'string'].includes(typeof parsed)) return parsed;
  } catch {
    // Not JSON: plain text.
  }
  return raw;
}

/**
 * `config set KEY VALUE [--force]` → the value to store. Booleans accept
 * true/false/1/0/yes/no/on/off (any case) and are stored as JSON booleans.
 */
export function parseConfigSet(key: string, raw: string, options: { force?: boolean } = {}): { key: string; value: unknown } {
  const spec = requireConfigKey(key);
  if (options.force) return { key: spec.key, value: forcedConfigValue(raw) };
  const value: ConfigValue | undefined = spec.parse(raw);
  if (value === undefined) {
    throw new InvalidConfigValueError(`${spec.key} must be ${spec.allowed}, got ${JSON.stringify(raw)}`, {
      key: spec.key,
      value: raw,
      allowed: spec.allowed,
    });
  }
  return { key: spec.key, value };
}

/** A config value as printed: strings bare, other scalars as JSON, unset as "". */
export function formatConfigValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `config get KEY`: the stored value, else the default (unset without default → ""). */
export function configGetText(config: Record<string, unknown>, key: string): string {
  const spec = requireConfigKey(key);
  const stored = storedConfigValue(config, spec.key);
  return formatConfigValue(stored === undefined ? spec.default : stored);
}

/** The line `config set` prints: `<key> = <value>`. */
export const configSetLine = (key: string, value: unknown): string => `${key} = ${formatConfigValue(value)}`;

/** The line telling a user that `key` is an old spelling, or null when it is current. */
export function legacySpellingNote(key: string): string | null {
  const current = LEGACY_KEYS.get(key);
  return current === undefined ? null : `config key ${key} is now spelled ${current}; the old spelling still works`;
}
