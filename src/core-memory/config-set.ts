import { CONFIG_KEYS, configKeySpec, storedConfigValue, type ConfigKeySpec, type ConfigValue } from './config-keys.js';
import { InvalidConfigValueError, UnknownConfigKeyError } from './errors.js';

/** The spec of a known key; `unknown_config_key` otherwise. */
export function requireConfigKey(key: string): ConfigKeySpec {
  const spec = configKeySpec(key);
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
  if (options.force) return { key, value: forcedConfigValue(raw) };
  const value: ConfigValue | undefined = spec.parse(raw);
  if (value === undefined) {
    throw new InvalidConfigValueError(`${key} must be ${spec.allowed}, got ${JSON.stringify(raw)}`, {
      key,
      value: raw,
      allowed: spec.allowed,
    });
  }
  return { key, value };
}

/** A config value as printed: strings bare, other scalars as JSON, unset as "". */
export function formatConfigValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `config get KEY`: the stored value, else the default (unset without default → ""). */
export function configGetText(config: Record<string, unknown>, key: string): string {
  const spec = requireConfigKey(key);
  const stored = storedConfigValue(config, key);
  return formatConfigValue(stored === undefined ? spec.default : stored);
}

/** The line `config set` prints: `<key> = <value>`. */
export const configSetLine = (key: string, value: unknown): string => `${key} = ${formatConfigValue(value)}`;
