import type { LoggedEvent } from '../event-log/event-log.js';

/**
 * What happened after the decisions, as the log recorded it: the latest retrieval of every page
 * (any session) and per session, and whether each page is live at the end. Plain maps, so the
 * index can be copied to worker threads. Times are ms since the epoch.
 */
export interface OutcomeIndex {
  pageLast: Map<string, number>;
  sessionLast: Map<string, number>;
  live: Map<string, boolean>;
}

export const outcomePageKey = (sourceId: string, slug: string): string => `${sourceId}\u0000${slug}`;
const sessionKey = (page: string, session: string): string => `${page}\u0000${session}`;

export const emptyOutcomes = (): OutcomeIndex => ({ pageLast: new Map(), sessionLast: new Map(), live: new Map() });

/** Folds retrieval and page events (in log order) into the index. */
export function addOutcomes(index: OutcomeIndex, events: readonly LoggedEvent[]): void {
  for (const { event } of events) {
    if (event.type === 'page.upserted' || event.type === 'page.deleted') {
      index.live.set(outcomePageKey(event.data.source_id, event.data.slug), event.type === 'page.upserted');
    } else if (event.type === 'page.retrieved') {
      const page = outcomePageKey(event.data.source_id, event.data.slug);
      const at = Date.parse(event.at);
      if (!(index.pageLast.get(page)! >= at)) index.pageLast.set(page, at);
      if (event.data.session_id === null) continue;
      const key = sessionKey(page, event.data.session_id);
      if (!(index.sessionLast.get(key)! >= at)) index.sessionLast.set(key, at);
    }
  }
}

/** Approximate attribution: the page is live and was retrieved (by anyone) after the volunteered event. */
export const usedApproximately = (index: OutcomeIndex, page: string, at: number): boolean =>
  index.live.get(page) === true && (index.pageLast.get(page) ?? Number.NEGATIVE_INFINITY) > at;

/** Session attribution: the page was retrieved in the same session after the volunteered event. */
export const usedInSession = (index: OutcomeIndex, page: string, session: string, at: number): boolean =>
  (index.sessionLast.get(sessionKey(page, session)) ?? Number.NEGATIVE_INFINITY) > at;

/**
 * The recall denominator: pages retrieved (at or after `since`) in one of `sessions` — what a
 * perfect volunteer would have surfaced there.
 */
export function retrievedInSessions(index: OutcomeIndex, sessions: ReadonlySet<string>, since: number | null): number {
  let n = 0;
  for (const [key, at] of index.sessionLast) {
    const session = key.slice(key.indexOf('\u0000', key.indexOf('\u0000') + 1) + 1);
    if (sessions.has(session) && (since === null || at >= since)) n++;
  }
  return n;
}
