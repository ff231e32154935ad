import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { editCoreKeys, type CoreKeyEdit } from '../core-memory/frontmatter-core-keys.js';
import { hashBytes, readPageFile } from './read-page-file.js';

export type WriteThroughPlan =
  | { kind: 'none' }
  | { kind: 'write'; path: string; text: string; contentHash: string }
  | { kind: 'skipped'; path: string; reason: string };

/**
 * `core add` / `core remove` on a page imported from a file that still exists also edit that
 * file's frontmatter, so a later import does not undo them. When the file is as last imported,
 * the page records the new file's hash (the next import sees nothing new); when it changed
 * since, the page keeps the old hash so the next import still picks the file's changes up.
 */
export function planWriteThrough(stored: { file_path: string | null; content_hash: string }, edit: CoreKeyEdit): WriteThroughPlan {
  const path = stored.file_path;
  if (path === null || !existsSync(path)) return { kind: 'none' };
  const read = readPageFile(path);
  if (!read.ok) return { kind: 'skipped', path, reason: read.reason };
  const text = editCoreKeys(read.text, edit);
  if (text === null) return { kind: 'skipped', path, reason: 'its frontmatter cannot be edited safely; edit the file by hand' };
  const inSync = read.hash === stored.content_hash;
  return { kind: 'write', path, text, contentHash: inSync ? hashBytes(text) : stored.content_hash };
}

/** Writes the planned file atomically (temp file + rename), keeping its mode. */
export function applyWriteThrough(plan: { path: string; text: string }): void {
  const tmp = `${plan.path}.${process.pid}.brainstream.tmp`;
  writeFileSync(tmp, plan.text, { mode: statSync(plan.path).mode & 0o777 });
  renameSync(tmp, plan.path);
}
