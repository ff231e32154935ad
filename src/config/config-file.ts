import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { homePaths } from '../home.js';
import { BrainstreamError } from '../errors.js';

export type StoredConfig = Record<string, unknown>;

/** `<home>/config.json` as stored; a missing file is an empty config. */
export function readConfigFile(home: string): StoredConfig {
  let text: string;
  try {
    text = readFileSync(homePaths(home).config, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as StoredConfig;
  } catch {
    // fall through to the error below
  }
  throw new BrainstreamError('invalid_config_file', `${homePaths(home).config} is not a JSON object; fix or remove it`);
}

/** Writes the whole config atomically (temp file + rename). */
export function writeConfigFile(home: string, config: StoredConfig): void {
  const path = homePaths(home).config;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
