import type { Db } from '../src/db/db.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { RebuildTarget } from '../src/event-log/rebuild-projection.js';
import { coreNoticesProjection } from './core-notices-projection.js';
import { coreRevisionsProjection } from './core-revisions-projection.js';
import { factsProjection } from './facts-projection.js';
import { learningProjection } from './learning-projection.js';
import { pagesProjection } from './pages-projection.js';
import { rememberRequestsProjection } from './remember-requests-projection.js';
import { purgeBelowWatermark, USAGE_RETENTION, VOLUNTEER_EVENTS_RETENTION } from './retention-purge.js';
import { retrievalsProjection } from './retrievals-projection.js';
import { usageStatsProjection } from './usage-stats-projection.js';
import { volunteerEventsProjection } from './volunteer-events-projection.js';

/** `pages.last_retrieved_at` = the latest retrieval projected so far (the invariant both projections keep). */
const LATEST_RETRIEVAL = `(SELECT max(r.retrieved_at) FROM page_retrievals r WHERE r.source_id = p.source_id AND r.slug = p.slug)`;

async function recomputeLastRetrieved(db: Db): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `WITH fixed AS (
       UPDATE pages p SET last_retrieved_at = ${LATEST_RETRIEVAL}
        WHERE p.last_retrieved_at IS DISTINCT FROM ${LATEST_RETRIEVAL}
       RETURNING 1)
     SELECT count(*)::int AS n FROM fixed`,
  );
  return Number(row!.n);
}

/**
 * A projection: the name `brainstream rebuild` takes, the version of its fold, the consumer that
 * folds its events into rows, the tables it owns, and how a rebuild from sequence 0 settles them.
 * The queries other code needs of its tables sit beside it (`<name>-queries.ts`).
 */
export interface Projection extends RebuildTarget {
  /** Raised whenever the fold changes what rows it writes for the same events: the next open rebuilds it. */
  version: number;
}

/** Every projection, in the order a short-lived command catches them up; each one can be rebuilt. */
export const PROJECTIONS: readonly Projection[] = [
  {
    name: 'pages',
    version: 1,
    consumer: pagesProjection,
    tables: [{ name: 'pages', key: ['source_id', 'slug'] }],
    // The rebuilt rows took last_retrieved_at from the retrievals of their time; settle it on the
    // retrievals projected when the swap commits, as the live table has it.
    finalize: async (shadow) => {
      await recomputeLastRetrieved(shadow);
    },
  },
  {
    name: 'retrievals',
    version: 1,
    consumer: retrievalsProjection,
    tables: [{ name: 'page_retrievals', key: ['id'] }],
    // The projection also raises pages.last_retrieved_at: an empty shadow `pages` absorbs those
    // writes during the rebuild, and the column is recomputed on the live pages at the swap.
    scratch: ['pages'],
    afterSwap: recomputeLastRetrieved,
  },
  {
    name: 'volunteer-events',
    version: 1,
    consumer: volunteerEventsProjection,
    tables: [
      { name: 'context_volunteer_events', key: ['id'] },
      { name: 'volunteer_events_retention', key: ['singleton'] },
    ],
    purge: async (shadow) => {
      await purgeBelowWatermark(shadow, VOLUNTEER_EVENTS_RETENTION, { batchSize: 10_000 });
    },
  },
  {
    name: 'usage-stats',
    version: 1,
    consumer: usageStatsProjection,
    tables: [
      { name: 'usage_stats', key: ['day', 'match_arm', 'channel', 'source_id'] },
      { name: 'usage_facts', key: ['id'] },
      { name: 'usage_page_marks', key: ['source_id', 'slug'] },
      { name: 'usage_session_marks', key: ['source_id', 'slug', 'session_id'] },
      { name: 'usage_retention', key: ['singleton'] },
    ],
    purge: async (shadow) => {
      await purgeBelowWatermark(shadow, USAGE_RETENTION, { batchSize: 10_000 });
    },
  },
  {
    // The learning gate's outcomes per page and session, and the counters its decision reads. The
    // purge's decision is applied inside the projection (sessions and counts go together), so a
    // rebuild needs no purge step of its own.
    name: 'learning',
    version: 1,
    consumer: learningProjection,
    tables: [
      { name: 'learning_sessions', key: ['source_id', 'slug', 'session_id'] },
      { name: 'learning_pages', key: ['source_id', 'slug'] },
      { name: 'learning_arms', key: ['match_arm'] },
      { name: 'learning_retention', key: ['singleton'] },
    ],
  },
  {
    // Core memory: every version of a core page (what `core diff` compares) and the per-page
    // version counter that numbers revisions r<N>. Heads keep the log position they folded in,
    // which a rebuild from sequence 0 reproduces.
    name: 'core-revisions',
    version: 1,
    consumer: coreRevisionsProjection,
    tables: [
      { name: 'core_revisions', key: ['source_id', 'slug', 'version'] },
      { name: 'core_page_heads', key: ['source_id', 'slug'] },
    ],
  },
  {
    // Core memory: pending remote-edit notices (remote revisions saved under notify, and how far
    // the owner acknowledged each page).
    name: 'core-notices',
    version: 1,
    consumer: coreNoticesProjection,
    tables: [
      { name: 'core_remote_revisions', key: ['source_id', 'slug', 'version'] },
      { name: 'core_revision_acks', key: ['source_id', 'slug'] },
    ],
  },
  {
    // Core memory: every remembered fact, with its status (active, superseded, forgotten).
    name: 'facts',
    version: 1,
    consumer: factsProjection,
    tables: [{ name: 'facts', key: ['id'] }],
  },
  {
    // Core memory: the stored response of each remember call with a request id (kept 7 days by event time).
    name: 'remember-requests',
    version: 1,
    consumer: rememberRequestsProjection,
    tables: [{ name: 'remember_requests', key: ['source_id', 'identity', 'request_id'] }],
  },
];

/** The consumers of every projection, in catch-up order. */
export const PROJECTION_CONSUMERS: readonly Consumer[] = PROJECTIONS.map((p) => p.consumer);

export const projectionNames = (): string[] => PROJECTIONS.map((p) => p.name);

export const findProjection = (name: string): Projection | undefined => PROJECTIONS.find((p) => p.name === name);
