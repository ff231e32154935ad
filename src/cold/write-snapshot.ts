import type { Db } from '../db/db.js';
import type { PageIndex } from '../context/page-index.js';
import { pagesPosition } from '../../projections/pages-projection.js';
import { clearSnapshotBehind, coldPaths } from './cold-files.js';
import { writeSnapshot } from './page-snapshot.js';

/**
 * Rewrites the page-index snapshot of the brain's home from its page index, then clears the
 * "behind" marker unless pages changed while it was written (the next write clears it then).
 */
/** What the snapshot is written from: an open brain's page index, its database and its page-change count. */
export interface SnapshotSource {
  readonly db: Db;
  readonly pagesGeneration: number;
  pageIndex(): Promise<PageIndex>;
}

export async function writePageSnapshot(brain: SnapshotSource, home: string, now = new Date()): Promise<void> {
  const generation = brain.pagesGeneration;
  const index = await brain.pageIndex();
  writeSnapshot(coldPaths(home).snapshot, index, await pagesPosition(brain.db), now);
  if (brain.pagesGeneration === generation) clearSnapshotBehind(home);
}
