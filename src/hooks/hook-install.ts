import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BrainstreamError } from '../errors.js';
import { claudeDir, codexDir } from '../harness-dirs.js';
import type { Settings } from './hook-settings.js';

export type BootstrapHarness = 'claude-code' | 'codex';

/** Default settings file: Claude Code `~/.claude/settings.json`, Codex `$CODEX_HOME/hooks.json`. */
export function defaultSettingsPath(harness: BootstrapHarness, env: NodeJS.ProcessEnv = process.env): string {
  return harness === 'codex' ? join(codexDir(env), 'hooks.json') : join(claudeDir(env), 'settings.json');
}

/** The settings object in `path` ({} when the file does not exist); refuses a file that is not a JSON object. */
export function readSettings(path: string): Settings {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Settings;
  } catch {
    // reported below
  }
  throw new BrainstreamError('invalid_settings_file', `${path} is not a JSON object; fix it first (nothing was changed)`);
}

/** Writes the settings atomically (temp file + rename), keeping the file's mode. */
export function writeSettings(path: string, settings: Settings): void {
  mkdirSync(dirname(path), { recursive: true });
  const mode = existsSync(path) ? statSync(path).mode & 0o777 : 0o600;
  const tmp = `${path}.brainstream-${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(settings, null, 2)}\n`, { mode });
  // The user's own file keeps its mode: the process umask (owner-only) would narrow it.
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

export interface InstallRecord {
  harness: BootstrapHarness;
  settings_path: string;
  installed_at: string;
}

const recordPath = (home: string): string => join(home, 'integrations', 'hooks', 'installed.json');

/** Where bootstrap registered hooks for this brain (doctor checks them against the heartbeat). */
export function readInstallRecords(home: string): InstallRecord[] {
  try {
    const value = JSON.parse(readFileSync(recordPath(home), 'utf8')) as { installs?: unknown };
    return Array.isArray(value.installs) ? (value.installs as InstallRecord[]).filter((r) => typeof r?.settings_path === 'string') : [];
  } catch {
    return [];
  }
}

export function writeInstallRecords(home: string, records: readonly InstallRecord[]): void {
  const path = recordPath(home);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ installs: records }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
