import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiledRevisionOf } from '../core-memory/compiled-block.js';
import type { CompiledFileRecord } from '../core-memory/core-doctor.js';
import { logger } from '../logger.js';

/** `<home>/compiled.json`: every file `compile-context` wrote, so doctor can check its core revision. */
const compiledRegistryPath = (home: string): string => join(home, 'compiled.json');

interface Entry {
  path: string;
  target: string;
  /** The revision written; null after `--remove-core`. */
  core_revision: string | null;
  updated_at: string;
}

function readEntries(home: string): Entry[] {
  try {
    const value = JSON.parse(readFileSync(compiledRegistryPath(home), 'utf8')) as { files?: unknown };
    return Array.isArray(value.files) ? (value.files as Entry[]).filter((e) => e && typeof e.path === 'string') : [];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn({ err }, 'compiled.json is unreadable; starting a new one');
    return [];
  }
}

/** Records (or updates) one compiled file, atomically. */
export function recordCompiledFile(home: string, entry: Omit<Entry, 'updated_at'>, now: Date): void {
  const entries = readEntries(home).filter((e) => e.path !== entry.path);
  entries.push({ ...entry, updated_at: now.toISOString() });
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const path = compiledRegistryPath(home);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ files: entries }, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * The recorded files as doctor sees them: the revision is read from each file's managed block
 * as it is now (the owner may have edited it); files that are gone are left out.
 */
export function compiledFilesForDoctor(home: string): CompiledFileRecord[] {
  const out: CompiledFileRecord[] = [];
  for (const e of readEntries(home)) {
    let text: string;
    try {
      text = readFileSync(e.path, 'utf8');
    } catch {
      continue;
    }
    out.push({ path: e.path, target: e.target ?? null, core_revision: compiledRevisionOf(text) });
  }
  return out;
}
