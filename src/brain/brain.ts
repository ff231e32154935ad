import { setFlagsFromString } from 'node:v8';
import type { Db } from '../db/db.js';
import { seedFromTemplate } from '../db/home-template.js';
import { migrate } from '../db/migrate.js';
import { openPgliteDb } from '../db/pglite-db.js';
import { topicOf, type Envelope, type EventType, type Topic } from '../domain/events.js';
import { catchUp, type CatchUpOptions, type Consumer } from '../event-log/consumer.js';
import { EmbeddedEventLog } from '../event-log/embedded-log.js';
import type { PageIndex } from '../context/page-index.js';
import { PROJECTION_CONSUMERS, PROJECTIONS } from '../../projections/registry.js';
import { rebuildChangedProjections } from '../../projections/projection-versions.js';
import { PageIndexFollower } from '../../streams/page-index-follower.js';
import { acquireBrainLock } from './brain-lock.js';
import { ensureHome, homePaths } from '../home.js';
import { logger } from '../logger.js';
import { insertRows } from '../db/db.js';
import { DEAD_LETTER_COLUMNS, DEAD_LETTER_CONFLICT } from '../event-log/dead-letters.js';
import { markSnapshotBehind } from '../cold/cold-files.js';
import { applySpool } from '../cold/spool.js';
import { numberSpooledTurns } from '../cold/number-spooled-turns.js';
import { topologySettings } from '../../streams/topology-settings.js';
import { createVolunteerProcessor, lastLoggedTurn } from '../../streams/volunteer-processor.js';

const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** An open embedded brain: its database, its log, and its projections. */
export class Brain {
  readonly log: EmbeddedEventLog;
  constructor(
    readonly db: Db,
    readonly home: string | null,
    private readonly release: () => void = () => {},
    readonly projections: readonly Consumer[] = PROJECTION_CONSUMERS,
  ) {
    this.log = new EmbeddedEventLog(db);
  }

  private readonly commitListeners = new Set<(events: readonly Envelope[]) => void>();
  private pageCommits = 0;

  /** Counts commits that held page events: a writer of derived files compares it before and after. */
  get pagesGeneration(): number {
    return this.pageCommits;
  }

  /**
   * Before page events are appended: the page-index snapshot of this home is marked as behind
   * (the cold path then stays off until it is rewritten).
   */
  private beforePageEvents(events: readonly Envelope[]): void {
    if (!events.some((e) => topicOf(e.type as EventType) === 'pages')) return;
    this.pageCommits++;
    if (this.home) markSnapshotBehind(this.home);
  }
  private livePageIndex: (() => Promise<PageIndex>) | null = null;

  /**
   * Appends events, then lets the projections catch up so reads see them. Only projections that
   * read these events' topics can have anything new from this append (each catch-up is a
   * transaction, and a long-running owner commits on every request). The events are in the log
   * once appended: every such projection gets its turn and the listeners hear even when one
   * projection fails; that failure is then reported to the caller.
   */
  async commit(events: readonly Envelope[]): Promise<void> {
    this.beforePageEvents(events);
    await this.log.append(events);
    let failure: { err: unknown } | null = null;
    for (const p of this.projectionsReading(events)) {
      try {
        await catchUp(this.db, this.log, p);
        this.projectionRecovered(p);
      } catch (err) {
        // The caller reports it; later catch-ups in this process need not warn again.
        this.behind.set(p.name, reasonOf(err));
        failure ??= { err };
      }
    }
    for (const listener of this.commitListeners) listener(events);
    if (failure) throw failure.err;
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
        this.beforePageEvents(decided.events);
        await this.log.append(decided.events, tx);
        // Only these can show this write; a projection left behind elsewhere must not block it.
        for (const p of this.projectionsReading(decided.events)) await catchUp(tx, this.log, p);
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

  /**
   * Brings every projection up to date. One that fails stays behind (its checkpoint unmoved, so
   * the next catch-up retries it) and is reported by one warning; the others still catch up, so
   * a broken feedback table never takes down the commands that do not read it.
   */
  async catchUp(options: CatchUpOptions = {}): Promise<void> {
    await this.catchUpEach(this.projections, options);
  }

  /** Brings up to date the projections that read any of `topics` (after appends to those topics only). */
  async catchUpReading(topics: readonly Topic[], options: CatchUpOptions = {}): Promise<void> {
    await this.catchUpEach(
      this.projections.filter((p) => p.topics.some((t) => topics.includes(t))),
      options,
    );
  }

  private async catchUpEach(projections: readonly Consumer[], options: CatchUpOptions): Promise<void> {
    for (const p of projections) {
      try {
        await catchUp(this.db, this.log, p, options);
        this.projectionRecovered(p);
      } catch (err) {
        this.projectionFailed(p, err);
      }
    }
  }

  /** Projections that failed at their last catch-up, with the reason (they retry at the next one). */
  projectionsBehind(): ReadonlyMap<string, string> {
    return this.behind;
  }

  private readonly behind = new Map<string, string>();

  private projectionsReading(events: readonly Envelope[]): Consumer[] {
    const topics = new Set(events.map((e) => topicOf(e.type as EventType)));
    return this.projections.filter((p) => p.topics.some((t) => topics.has(t)));
  }

  /** Warns once per projection and reason, not at every retry (a long-running owner retries per batch). */
  private projectionFailed(p: Consumer, err: unknown): void {
    const reason = reasonOf(err);
    if (this.behind.get(p.name) !== reason) {
      logger.warn({ err, projection: p.name }, `${p.name} failed; it stays behind and retries at the next catch-up`);
    }
    this.behind.set(p.name, reason);
  }

  private projectionRecovered(p: Consumer): void {
    if (this.behind.delete(p.name)) logger.info({ projection: p.name }, `${p.name} caught up again`);
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
 * Opens the brain in `home` (creating it, from the prebuilt template when it matches), migrated
 * and caught up. `onLocked` runs once the lock is held, before the database opens (serve starts
 * listening there, so clients wait for it). `brief`: the process closes it soon and exits.
 * `decidesTurns`: the caller runs the volunteer processor itself (serve's engine) and decides the
 * turns handed over from the cold path when it starts; otherwise they are decided here.
 */
export async function openBrain(home: string, options: { onLocked?: () => Promise<void>; brief?: boolean; decidesTurns?: boolean } = {}): Promise<Brain> {
  ensureHome(home);
  const paths = homePaths(home);
  const release = acquireBrainLock(paths.lock);
  try {
    await options.onLocked?.();
    const seeded = await seedFromTemplate(paths.database);
    // A command that closes the brain right after runs the database's WebAssembly with the
    // baseline compiler only: the optimising recompilation of hot functions would never pay off
    // in it, and skipping it saves start-up CPU and tens of megabytes.
    if (options.brief) setFlagsFromString('--liftoff-only');
    const db = await openPgliteDb(paths.database);
    // A database made from the template holds exactly the migrations this package ships.
    if (!seeded) await migrate(db);
    const brain = new Brain(db, home, release);
    await settleProjectionVersions(brain);
    await brain.catchUp();
    if (options.decidesTurns) await appendSpooledEvents(brain, home);
    else await applySpooledEvents(brain, home);
    return brain;
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * Rebuilds the projections whose fold changed since their tables were built. A failure leaves
 * the old tables in use (with a warning) and the rebuild for the next open.
 */
async function settleProjectionVersions(brain: Brain): Promise<void> {
  try {
    await rebuildChangedProjections(brain.db, brain.log, PROJECTIONS);
  } catch (err) {
    logger.warn({ err }, 'could not rebuild the projections whose fold changed; they are rebuilt at the next open');
  }
}

/**
 * Appends what calls answered on the cold path left in the spool. A failure leaves the files
 * for the next open and never keeps the brain from opening.
 */
async function applySpooledEvents(brain: Brain, home: string): Promise<void> {
  if ((await appendSpooledEvents(brain, home)) > 0) await decideSpooledTurns(brain, home);
}

/** One spool hand-off at a time per brain: a second reader would find the same files. */
const spoolHandoffs = new WeakMap<Brain, Promise<unknown>>();

/**
 * Appends the spool's events to the brain's log (turns numbered after their session's last),
 * and returns how many turns it appended; their decisions are the caller's (the processor it
 * runs). Never throws: a failure is logged and the files stay for the next hand-off.
 */
export function appendSpooledEvents(brain: Brain, home: string): Promise<number> {
  const run = (spoolHandoffs.get(brain) ?? Promise.resolve()).then(async () => {
    let turns = 0;
    try {
      await applySpool(home, {
        append: async (events) => {
          const numbered = await numberSpooledTurns(events, (session) => lastLoggedTurn(brain.db, session));
          turns += numbered.filter((e) => e.type === 'turn.appended').length;
          await brain.commit(numbered);
        },
        deadLetters: (rejects) =>
          insertRows(brain.db, 'dead_letters', DEAD_LETTER_COLUMNS, rejects.map((r) => ['spool', null, r.where, null, r.reason, r.raw]), DEAD_LETTER_CONFLICT),
      });
    } catch (err) {
      logger.warn({ err }, 'could not append the spooled cold-path events; they are retried at the next hand-off');
    }
    return turns;
  });
  spoolHandoffs.set(brain, run);
  return run;
}

/**
 * Handed-over turns are decided now, by the volunteer processor every owner runs, so their
 * deliveries are rows before the command that opened the brain reads anything (a failure leaves
 * them for the next owner's catch-up).
 */
async function decideSpooledTurns(brain: Brain, home: string): Promise<void> {
  try {
    const pages = await PageIndexFollower.load(brain.db, brain.log);
    const processor = createVolunteerProcessor({ log: brain.log, pages, settings: () => topologySettings(home), channel: 'watch' });
    await catchUp(brain.db, brain.log, processor);
    await brain.catchUp();
  } catch (err) {
    logger.warn({ err }, 'could not decide the handed-over turns; the next owner of the brain decides them');
  }
}

/** An in-memory brain for tests and benchmarks, or one over a given database. */
export async function openBrainOn(db: Db): Promise<Brain> {
  await migrate(db);
  const brain = new Brain(db, null);
  await settleProjectionVersions(brain);
  await brain.catchUp();
  return brain;
}
