import type { Db } from '../src/db/db.js';
import { PageIndex } from '../src/context/page-index.js';
import type { EmbeddedEventLog } from '../src/event-log/embedded-log.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';
import { topicOf, type Envelope } from '../src/domain/events.js';
import { livePagesSnapshot } from '../projections/pages-queries.js';

/**
 * The page index as a state store: loaded once from the `pages` projection, then kept current by
 * following the log's page events. Resolution never queries the database per turn.
 */
export class PageIndexFollower {
  readonly index = new PageIndex();
  private position = 1;
  /** Only while following a brain's commits (`followCommits`): page events may be unapplied. */
  private changeTracking = false;
  private changed = true;

  private constructor(private readonly log: EmbeddedEventLog) {}

  static async load(db: Db, log: EmbeddedEventLog): Promise<PageIndexFollower> {
    const follower = new PageIndexFollower(log);
    const snapshot = await livePagesSnapshot(db);
    follower.position = snapshot.position;
    for (const page of snapshot.pages) follower.index.upsert(page);
    await follower.refresh(db);
    return follower;
  }

  /**
   * For the brain's owner, which sees every commit: from now on `refresh` reads the log only
   * after page events were committed, so deciding turns queries nothing for pages when no page
   * changed. Returns the unsubscribe.
   */
  followCommits(brain: { onCommit(listener: (events: readonly Envelope[]) => void): () => void }): () => void {
    this.changeTracking = true;
    return brain.onCommit((events) => {
      if (events.some((e) => topicOf(e.type) === 'pages')) this.pagesChanged();
    });
  }

  /** Page events may exist that were not applied yet (a commit, or a look at the log's end). */
  pagesChanged(): void {
    this.changed = true;
  }

  /** True when `refresh` would read the log. */
  get stale(): boolean {
    return !this.changeTracking || this.changed;
  }

  /** Applies page events appended since the last call. Cheap when there are none. */
  async refresh(tx: Db): Promise<void> {
    if (!this.stale) return;
    // Cleared before reading: a commit during the read marks it again for the next call.
    this.changed = false;
    for (;;) {
      const batch = await this.log.read(this.position, { topics: ['pages'], limit: 5000 }, tx);
      this.applyEvents(batch.events);
      if (batch.next === this.position) return;
      this.position = batch.next;
    }
  }

  applyEvents(events: readonly LoggedEvent[]): void {
    for (const { event } of events) {
      if (event.type === 'page.upserted') this.index.upsert(event.data);
      else if (event.type === 'page.deleted') this.index.remove(event.data.source_id, event.data.slug);
    }
  }
}
