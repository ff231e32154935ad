import { configGetText, configSetLine, parseConfigSet, requireConfigKey } from '../core-memory/config-set.js';
import { readConfigFile, writeConfigFile } from './config-file.js';

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
  const { value } = parseConfigSet(key, raw, options);
  const config = readConfigFile(home);
  dropNested(config, key);
  config[key] = value;
  writeConfigFile(home, config);
  return configSetLine(key, value);
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
