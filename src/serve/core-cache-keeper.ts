import { statSync } from 'node:fs';
import type { Brain } from '../brain/brain.js';
import { homePaths } from '../home.js';
import { outsideCommand } from '../command-io.js';
import type { CorePageRow } from '../core-memory/core-page.js';
import { logger } from '../logger.js';
import { loadCoreRows } from '../../projections/pages-queries.js';
import { writeCoreCache } from './core-cache-file.js';
import { snapshotCurrent } from '../cold/cold-files.js';
import { writePageSnapshot } from '../cold/write-snapshot.js';
import { coreBlockOf, loadCoreState } from './core-session-block.js';
import type { CoreBlockResult } from '../serve-client/protocol.js';

/** Identifies the config file's current version without reading it. */
function configStamp(home: string): string {
  try {
    const st = statSync(homePaths(home).config);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return 'none';
  }
}

/**
 * Answers `core_block` and keeps `<home>/run/core-cache.json` current: the core rows are read
 * once per page change, and the file is rewritten shortly after a page or core change, after a
 * command that changed the config file, and periodically (fact expiry follows the date).
 */
export class CoreCacheKeeper {
  private rows: CorePageRow[] | null = null;
  private generation = 0;
  private debounce: NodeJS.Timeout | null = null;
  private period: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private configSeen: string;
  /** The brain's pages generation the page snapshot was last written at (-1: not yet). */
  private snapshotOf = -1;

  constructor(
    private readonly brain: Brain,
    private readonly home: string,
    private readonly sourceIds: () => string[],
  ) {
    this.configSeen = configStamp(home);
  }

  /** Pages changed: re-read the core rows on next use and rewrite the file soon. */
  invalidate(): void {
    this.generation++;
    this.rows = null;
    this.schedule();
  }

  /** A command finished: it may have changed the config (the core switch); rewrite only if it did. */
  configMaybeChanged(): void {
    const stamp = configStamp(this.home);
    if (stamp === this.configSeen) return;
    this.configSeen = stamp;
    this.schedule();
  }

  /** Rewrite the file soon (bursts coalesce). */
  schedule(delayMs = 100): void {
    if (this.debounce) return;
    outsideCommand(() => {
      this.debounce = setTimeout(() => {
        this.debounce = null;
        void this.write();
      }, delayMs);
      this.debounce.unref();
    });
  }

  start(periodMs = 60_000): void {
    outsideCommand(() => {
      this.period = setInterval(() => void this.write(), periodMs);
      this.period.unref();
    });
  }

  async block(sourceId: string): Promise<CoreBlockResult & { notices: string[] }> {
    return coreBlockOf(await loadCoreState(this.brain, new Date(), await this.coreRows()), sourceId);
  }

  /** Writes the file now (serialised with earlier writes); failures are logged, never thrown. */
  write(): Promise<void> {
    this.writing = this.writing.then(async () => {
      try {
        if (this.brain.pagesGeneration !== this.snapshotOf || !snapshotCurrent(this.home)) {
          this.snapshotOf = this.brain.pagesGeneration;
          await writePageSnapshot(this.brain, this.home);
        }
        const state = await loadCoreState(this.brain, new Date(), await this.coreRows());
        writeCoreCache(this.home, state, this.sourceIds(), new Date());
      } catch (err) {
        logger.warn({ err }, 'could not write the core cache');
      }
    });
    return this.writing;
  }

  async stop(): Promise<void> {
    if (this.debounce) clearTimeout(this.debounce);
    if (this.period) clearInterval(this.period);
    this.debounce = null;
    await this.writing;
  }

  private async coreRows(): Promise<CorePageRow[]> {
    if (this.rows) return this.rows;
    const generation = this.generation;
    const rows = await loadCoreRows(this.brain.db);
    // Rows read across a page change may be stale: use them once, keep only current ones.
    if (generation === this.generation) this.rows = rows;
    return rows;
  }
}
