import { CONFIG_KEYS, LEGACY_KEYS, lookupStoredValue, type ConfigValue } from '../core-memory/config-keys.js';
import { configGetText, configSetLine, parseConfigSet, requireConfigKey } from '../core-memory/config-set.js';
import { readConfigFile, writeConfigFile } from './config-file.js';
import { ENV_OVERRIDES, envOverride } from './push-settings.js';

/** `config get KEY`: the stored value, else the default (strings bare; unset → ""). Unknown keys are refused. */
export function configGet(home: string, key: string): string {
  requireConfigKey(key);
  return configGetText(readConfigFile(home), key);
}

/**
 * `config set KEY VALUE [--force]`: validates (`unknown_config_key`, `invalid_config_value`:
 * nothing written) and stores the value under its dotted key; a nested spelling of the same key
 * is dropped so the file never holds two answers. Returns the line to print.
 */
export function configSet(home: string, key: string, raw: string, options: { force?: boolean } = {}): string {
  const parsed = parseConfigSet(key, raw, options);
  const config = readConfigFile(home);
  dropNested(config, parsed.key);
  for (const [legacy, current] of LEGACY_KEYS) if (current === parsed.key) delete config[legacy];
  config[parsed.key] = parsed.value;
  writeConfigFile(home, config);
  return configSetLine(parsed.key, parsed.value);
}

/** One setting as `config list` shows it. */
export interface ConfigListEntry {
  key: string;
  /** The value in use. */
  value: ConfigValue | null;
  default: ConfigValue | null;
  /** Where the value in use comes from. */
  source: 'default' | 'config' | 'env';
  /** The environment variable that set it (source `env`). */
  env?: string;
  /** What config.json holds, when that is not what is used (out of range, or overridden by env). */
  stored?: unknown;
  /** The old spelling config.json stores it under. */
  stored_as?: string;
}

/** `config list`: every known setting, its value in use, its default and where the value came from. */
export function configList(home: string, env: Readonly<Record<string, string | undefined>> = process.env): ConfigListEntry[] {
  const config = readConfigFile(home);
  return CONFIG_KEYS.map((spec) => {
    const stored = lookupStoredValue(config, spec.key);
    const entry: ConfigListEntry = { key: spec.key, value: spec.default, default: spec.default, source: 'default' };
    if (stored.value !== undefined) {
      const effective = spec.effective(stored.value);
      entry.value = effective.value;
      entry.source = 'config';
      if (!effective.valid) entry.stored = stored.value;
      if (stored.legacy !== undefined) entry.stored_as = stored.legacy;
    }
    const fromEnv = envOverride(spec.key, env);
    if (fromEnv !== null) {
      if (entry.source === 'config' && entry.stored === undefined) entry.stored = stored.value;
      entry.value = fromEnv;
      entry.source = 'env';
      entry.env = ENV_OVERRIDES.get(spec.key)!.name;
    }
    return entry;
  });
}

function dropNested(config: Record<string, unknown>, key: string): void {
  const parts = key.split('.');
  if (parts.length < 2) return;
  const parents: Record<string, unknown>[] = [config];
  for (const part of parts.slice(0, -1)) {
    const node = parents[parents.length - 1][part];
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
    parents.push(node as Record<string, unknown>);
  }
  delete parents[parents.length - 1][parts[parts.length - 1]];
  // Empty parents left behind are removed, innermost first.
  for (let i = parents.length - 1; i > 0; i--) {
    if (Object.keys(parents[i]).length === 0) delete parents[i - 1][parts[i - 1]];
  }
}
