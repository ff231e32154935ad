import type { Db } from '../src/db/db.js';
import type { Channel } from '../src/domain/event-schemas.js';
import type { Envelope, Topic } from '../src/domain/events.js';
import type { PageIndex } from '../src/context/page-index.js';
import { catchUp } from '../src/event-log/consumer.js';
import type { EmbeddedEventLog } from '../src/event-log/embedded-log.js';
import { logger } from '../src/logger.js';
import type { TopologySettings, TurnDecision, TurnEvent } from './decide-turns.js';
import { PageIndexFollower } from './page-index-follower.js';
import { createVolunteerProcessor, type VolunteerProcessor } from './volunteer-processor.js';

/**
 * Where a stream of turns goes: appended to the log and decided; resolves with the decisions of
 * those turns as soon as they are decided (projecting the volunteered events never holds them
 * back). `settle` waits for the background writes that follow.
 */
export interface TurnSink {
  submitTurns(events: readonly TurnEvent[]): Promise<TurnDecision[]>;
  settle?(): Promise<void>;
}

/** What the engine needs of the brain it runs on (an open embedded brain). */
export interface EngineBrain {
  readonly db: Db;
  readonly log: EmbeddedEventLog;
  /** Brings the projections up to date (failures are reported by the brain and retried later). */
  catchUp(): Promise<void>;
  /** The same for the projections that read these topics only. */
  catchUpReading(topics: readonly Topic[]): Promise<void>;
  onCommit(listener: (events: readonly Envelope[]) => void): () => void;
}

export interface TurnEngineOptions {
  /** Re-read per batch, so configuration changes apply to the next turns. */
  settings: () => TopologySettings;
  channel?: Channel;
  /**
   * Runs background work outside the caller's async context (serve: outside a forwarded
   * command, whose output must not receive the engine's logs). Default: as is.
   */
  detach?: <T>(fn: () => T) => T;
}

const SUBMITTED_TOPICS: readonly Topic[] = ['turns', 'volunteered'];

const retryLater = (err: unknown): void => logger.warn({ err }, 'stream processing failed; retrying on the next append or poll');

/**
 * The embedded turn engine: the page index and the volunteer processor of one brain owner
 * (`watch`, `serve`, the demo, the benchmarks). A pass refreshes the index (inside the
 * processor's transaction, once), decides every turn after the processor's checkpoint, appends
 * their volunteered events, and hands the decisions back as its result; the projections follow in
 * a pass of their own. All passes are serialised, so each turn is decided exactly once.
 */
export class TurnEngine implements TurnSink {
  private queue: Promise<unknown> = Promise.resolve();
  private projectQueued = false;
  private kicked = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private seenEnd = 0;
  private readonly unfollow: () => void;

  private constructor(
    private readonly brain: EngineBrain,
    private readonly pages: PageIndexFollower,
    private readonly processor: VolunteerProcessor,
    private readonly detach: <T>(fn: () => T) => T,
  ) {
    // This process owns the brain: every page write commits here, so the index reads the log only after one.
    this.unfollow = pages.followCommits(brain);
  }

  /** Loads the page index from the `pages` projection and prepares the processor. */
  static async start(brain: EngineBrain, options: TurnEngineOptions): Promise<TurnEngine> {
    const pages = await PageIndexFollower.load(brain.db, brain.log);
    const processor = createVolunteerProcessor({ log: brain.log, pages, settings: options.settings, channel: options.channel ?? 'watch' });
    return new TurnEngine(brain, pages, processor, options.detach ?? ((fn) => fn()));
  }

  /** Serialises `fn` after everything queued. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.detach(() => {
      const run = this.queue.then(fn, fn);
      this.queue = run.catch(() => {});
      return run;
    });
  }

  /** Decides every turn after the processor's checkpoint; returns the decisions. */
  private decide(): Promise<TurnDecision[]> {
    return catchUp(this.brain.db, this.brain.log, this.processor);
  }

  /** A full pass: decide, then project. */
  private async pass(): Promise<void> {
    await this.decide();
    await this.brain.catchUp();
  }

  /** Appends the turns and decides them; resolves with their decisions before the projections run. */
  async submitTurns(events: readonly TurnEvent[]): Promise<TurnDecision[]> {
    const decided = await this.exclusive(async () => {
      await this.brain.log.append(events);
      return this.decide();
    });
    this.projectSoon();
    const mine = new Set(events.map((e) => e.id));
    return decided.filter((d) => mine.has(d.event.id));
  }

  /** Waits for every pass queued so far (the projections of submitted turns included). */
  async settle(): Promise<void> {
    await this.exclusive(async () => {});
  }

  /** The projections after submitted turns: bursts coalesce into one catch-up. */
  private projectSoon(): void {
    if (this.projectQueued) return;
    this.projectQueued = true;
    void this.exclusive(async () => {
      this.projectQueued = false;
      // Submitted turns append turns and volunteered pages: only their readers have anything new.
      await this.brain.catchUpReading(SUBMITTED_TOPICS);
    }).catch(retryLater);
  }

  /** New turns exist (or may): decide them soon; bursts of kicks coalesce into one pass. */
  kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    void this.exclusive(async () => {
      this.kicked = false;
      await this.pass();
    }).catch(retryLater);
  }

  /** Runs one pass now (start-up: turns appended before this process decided at once). */
  catchUpNow(): Promise<void> {
    return this.exclusive(() => this.pass());
  }

  /**
   * The safety net for entries this process did not append through `Brain.commit`: a cheap
   * look at the log's end, and a pass only when it moved.
   */
  poll(everyMs: number): void {
    this.detach(() => {
      this.timer = setInterval(() => {
        if (this.stopped) return;
        void this.exclusive(async () => {
          const end = await this.brain.log.end();
          if (end === this.seenEnd) return;
          this.seenEnd = end;
          this.pages.pagesChanged();
          await this.pass();
        }).catch(retryLater);
      }, everyMs);
      this.timer.unref();
    });
  }

  /** The page index with every committed page event applied. */
  async pageIndex(): Promise<PageIndex> {
    if (!this.pages.stale) return this.pages.index;
    return this.exclusive(async () => {
      await this.pages.refresh(this.brain.db);
      return this.pages.index;
    });
  }

  /** The page index as it stands, without waiting for page events not applied yet. */
  indexAsIs(): PageIndex {
    return this.pages.index;
  }

  /** Stops the poll and runs a final pass (pending turns decided, projections current). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    try {
      await this.exclusive(() => this.pass());
    } finally {
      this.unfollow();
    }
  }
}
