import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPgliteDb } from '../db/pglite-db.js';
import type { Envelope } from '../domain/events.js';
import { catchUp, type CatchUpOptions, type Consumer } from '../log/consumer.js';
import { EmbeddedEventLog } from '../log/embedded-log.js';
import type { PageIndex } from '../context/page-index.js';
import { PROJECTIONS } from '../../projections/index.js';
import { PageIndexFollower } from '../../streams/page-index-follower.js';
import { acquireBrainLock } from './brain-lock.js';
import { ensureHome, homePaths } from './home.js';

/** An open embedded brain: its database, its log, and its projections. */
export class Brain {
  readonly log: EmbeddedEventLog;
  constructor(
    readonly db: Db,
    readonly home: string | null,
    private readonly release: () => void = () => {},
    readonly projections: readonly Consumer[] = PROJECTIONS,
  ) {
    this.log = new EmbeddedEventLog(db);
  }

  private readonly commitListeners = new Set<(events: readonly Envelope[]) => void>();
  private livePageIndex: (() => Promise<PageIndex>) | null = null;

  /** Appends events, then lets every projection catch up so reads see them. */
  async commit(events: readonly Envelope[]): Promise<void> {
    await this.log.append(events);
    await this.catchUp();
    for (const listener of this.commitListeners) listener(events);
  }

  /** Called after every commit: a long-running owner (serve, watch) wakes its stream processors here. */
  onCommit(listener: (events: readonly Envelope[]) => void): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /**
   * The page index, current as of the last commit. A short-lived command loads it; a long-running
   * owner installs its live index (`useLivePageIndex`), so commands it runs never reload it.
   */
  async pageIndex(): Promise<PageIndex> {
    if (this.livePageIndex) return this.livePageIndex();
    return (await PageIndexFollower.load(this.db, this.log)).index;
  }

  useLivePageIndex(provider: () => Promise<PageIndex>): void {
    this.livePageIndex = provider;
  }

  async catchUp(options: CatchUpOptions = {}): Promise<void> {
    for (const p of this.projections) await catchUp(this.db, this.log, p, options);
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      this.release();
    }
  }
}

/** Opens the brain in `home` (creating it), migrated and caught up. */
export async function openBrain(home: string): Promise<Brain> {
  ensureHome(home);
  const paths = homePaths(home);
  const release = acquireBrainLock(paths.lock);
  try {
    const db = await openPgliteDb(paths.database);
    await migrate(db);
    const brain = new Brain(db, home, release);
    await brain.catchUp();
    return brain;
  } catch (err) {
    release();
    throw err;
  }
}

/** An in-memory brain for tests and benchmarks, or one over a given database. */
export async function openBrainOn(db: Db): Promise<Brain> {
  await migrate(db);
  const brain = new Brain(db, null);
  await brain.catchUp();
  return brain;
}
