import { PageIndex } from '../context/page-index.js';
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

/**
 * The pages of the snapshot a session's turns could name, gathered as the turns come: a word is
 * looked up once, so a long session reads each bucket once instead of once per batch. When the
 * snapshot is rewritten (its log position moved), the gathered pages are dropped and looked up
 * again from the new one.
 */
export class ColdSessionIndex {
  private index = new PageIndex();
  private readonly seen = new Set<string>();
  private position: number | null = null;

  constructor(private readonly home: string) {}

  /** The gathered pages, now including those `texts` could name; null as for `coldIndexFor`. */
  pagesFor(texts: readonly string[]): PageIndex | null {
    if (!snapshotCurrent(this.home)) return null;
    const path = coldPaths(this.home).snapshot;
    try {
      const words = windowWords(texts);
      let fresh = [...words].filter((w) => !this.seen.has(w));
      let { header } = lookUpSnapshot(path, fresh, { into: this.index });
      if (this.position !== null && header.position !== this.position) {
        this.index = new PageIndex();
        this.seen.clear();
        fresh = [...words];
        ({ header } = lookUpSnapshot(path, fresh, { into: this.index }));
      }
      this.position = header.position;
      for (const w of fresh) this.seen.add(w);
      return this.index;
    } catch {
      return null;
    }
  }
}
