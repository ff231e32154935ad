import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPgliteDb } from '../db/pglite-db.js';
import { topicOf, type Envelope, type EventType } from '../domain/events.js';
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

  /**
   * Appends events, then lets the projections catch up so reads see them. Only projections that
   * read these events' topics can have anything new from this append (each catch-up is a
   * transaction, and a long-running owner commits on every request).
   */
  async commit(events: readonly Envelope[]): Promise<void> {
    await this.log.append(events);
    const topics = new Set(events.map((e) => topicOf(e.type as EventType)));
    for (const p of this.projections) if (p.topics.some((t) => topics.has(t))) await catchUp(this.db, this.log, p);
    for (const listener of this.commitListeners) listener(events);
  }

  /**
   * A decision and its events in one transaction: `fn` reads what it needs through `tx` and
   * returns the events, which are appended and projected inside that same transaction, so a
   * lock `fn` takes there (the core-budget guard) holds until the projections show its write.
   * Listeners hear after the commit. Inside `fn`, use only `tx` (PGlite has one connection).
   */
  async commitInTransaction<T>(fn: (tx: Db) => Promise<{ events: readonly Envelope[]; result: T }>): Promise<T> {
    const { events, result } = await this.db.transaction(async (tx) => {
      const decided = await fn(tx);
      if (decided.events.length > 0) {
        await this.log.append(decided.events, tx);
        for (const p of this.projections) await catchUp(tx, this.log, p);
      }
      return decided;
    });
    if (events.length > 0) for (const listener of this.commitListeners) listener(events);
    return result;
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

/**
 * Opens the brain in `home` (creating it), migrated and caught up. `onLocked` runs once the lock
 * is held, before the database opens (serve starts listening there, so clients wait for it).
 */
export async function openBrain(home: string, options: { onLocked?: () => Promise<void> } = {}): Promise<Brain> {
  ensureHome(home);
  const paths = homePaths(home);
  const release = acquireBrainLock(paths.lock);
  try {
    await options.onLocked?.();
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
