import type { PageIndex } from '../context/page-index.js';
import { coldPaths, snapshotCurrent } from './cold-files.js';
import { lookUpSnapshot } from './page-snapshot.js';
import { windowWords } from './snapshot-keys.js';

/**
 * The pages of the home's snapshot that `texts` could name, as a page index; null when the
 * snapshot is missing, behind the log or unreadable (the caller then needs the open brain).
 */
export function coldIndexFor(home: string, texts: readonly string[]): PageIndex | null {
  if (!snapshotCurrent(home)) return null;
  try {
    return lookUpSnapshot(coldPaths(home).snapshot, windowWords(texts)).index;
  } catch {
    return null;
  }
}
