import type { Brain } from '../brain/brain.js';
import { outsideCommand } from '../cli/cli-io.js';
import type { PageIndex } from '../context/page-index.js';
import { catchUp, type Consumer } from '../log/consumer.js';
import { logger } from '../logger.js';
import type { TurnEvent, TurnSink } from '../ops/watch-stream.js';
import type { PageIndexFollower } from '../../streams/page-index-follower.js';
import type { TurnDecision } from '../../streams/volunteer-topology.js';

type Processor = Consumer & { drain(): TurnDecision[] };

/**
 * Runs the volunteer processor and the projections continuously for a long-running owner: after
 * every local append (`kick`), on a short poll, and at once for a hosted `watch`'s turns. All
 * work on the processor and the page index is serialised here, so the index is never refreshed
 * twice at once and each turn is decided exactly once.
 */
export class StreamPump implements TurnSink {
  private queue: Promise<unknown> = Promise.resolve();
  private kicked = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly waiters = new Map<string, (d: TurnDecision | null) => void>();
  private stopped = false;
  private seenEnd = 0;

  constructor(
    private readonly brain: Brain,
    private readonly pages: PageIndexFollower,
    private readonly processor: Processor,
  ) {}

  /** Serialises `fn` after everything queued, outside any forwarded command's context. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return outsideCommand(() => {
      const run = this.queue.then(fn, fn);
      this.queue = run.catch(() => {});
      return run;
    });
  }

  /** New turns exist (or may): decide them soon; bursts of kicks coalesce into one run. */
  kick(): void {
    if (this.kicked || this.stopped) return;
    this.kicked = true;
    void this.exclusive(async () => {
      this.kicked = false;
      await this.runOnce();
    }).catch((err: unknown) => logger.warn({ err }, 'stream processing failed; retrying on the next append or poll'));
  }

  /** Runs one pass now (start-up: turns appended before this process decided at once). */
  catchUpNow(): Promise<void> {
    return this.exclusive(() => this.runOnce());
  }

  /**
   * The safety net for entries this process did not append through `Brain.commit`: a cheap
   * look at the log's end, and a pass only when it moved.
   */
  start(pollMs: number): void {
    outsideCommand(() => {
      this.timer = setInterval(() => {
        if (this.stopped) return;
        void this.exclusive(async () => {
          const end = await this.brain.log.end();
          if (end === this.seenEnd) return;
          this.seenEnd = end;
          this.pages.pagesChanged();
          await this.runOnce();
        }).catch((err: unknown) => logger.warn({ err }, 'stream processing failed; retrying on the next append or poll'));
      }, pollMs);
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

  async submitTurns(events: readonly TurnEvent[]): Promise<TurnDecision[]> {
    const pending = events.map((e) => new Promise<TurnDecision | null>((resolve) => this.waiters.set(e.id, resolve)));
    try {
      await this.brain.log.append(events);
      // Delivery waits for the decisions, not for the projections the run goes on to (push-context §8);
      // a run that fails before deciding fails this call (Brain reports its own projection failures).
      const run = this.exclusive(() => this.runOnce());
      run.catch(() => {});
      await Promise.race([Promise.all(pending), run]);
    } finally {
      // A failed run leaves its turns for the next one; this batch reports nothing volunteered.
      for (const e of events) this.waiters.get(e.id)?.(null);
      for (const e of events) this.waiters.delete(e.id);
    }
    return (await Promise.all(pending)).filter((d): d is TurnDecision => d !== null);
  }

  /** Stops the poll and runs a final catch-up (pending turns decided, projections current). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.exclusive(() => this.runOnce());
  }

  /** One pass: pages, then the processor (its volunteered events appended), then the projections. */
  private async runOnce(): Promise<void> {
    await this.pages.refresh(this.brain.db);
    let decisions: TurnDecision[] = [];
    try {
      await catchUp(this.brain.db, this.brain.log, this.processor);
    } finally {
      decisions = this.processor.drain();
      for (const d of decisions) this.waiters.get(d.event.id)?.(d);
    }
    await this.brain.catchUp();
  }
}
