import { existsSync, mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homePaths } from '../home.js';

/**
 * The files that let a process answer before (or without) opening the database — the cold
 * path: the page-index snapshot, a marker saying it may be behind the log, and the spool of
 * events decided on the cold path, waiting to be appended to the log.
 *
 * The marker is written before page events are committed and removed only after a snapshot
 * that includes them was written, so a crash in between leaves the snapshot marked as behind
 * and the cold path stays off until the next owner of the brain rewrites it.
 */
export const coldPaths = (home: string) => {
  const run = homePaths(home).run;
  return {
    snapshot: join(run, 'page-snapshot.bin'),
    behind: join(run, 'page-snapshot.behind'),
    spool: join(run, 'spool'),
  };
};

/** Marks the snapshot as possibly behind the log (before committing page events). */
export function markSnapshotBehind(home: string): void {
  const { behind } = coldPaths(home);
  if (existsSync(behind)) return;
  mkdirSync(homePaths(home).run, { recursive: true, mode: 0o700 });
  writeFileSync(behind, '', { mode: 0o600 });
}

export function clearSnapshotBehind(home: string): void {
  try {
    unlinkSync(coldPaths(home).behind);
  } catch {
    // Already gone.
  }
}

/** True when a snapshot exists and nothing committed since may be missing from it. */
export function snapshotCurrent(home: string): boolean {
  const { snapshot, behind } = coldPaths(home);
  return existsSync(snapshot) && !existsSync(behind);
}
