import type { Consumer } from '../src/log/consumer.js';
import { coreNoticesProjection } from './core-notices-projection.js';
import { coreRevisionsProjection } from './core-revisions-projection.js';
import { factsProjection } from './facts-projection.js';
import { pagesProjection } from './pages-projection.js';
import { rememberRequestsProjection } from './remember-requests-projection.js';
import { retrievalsProjection } from './retrievals-projection.js';
import { usageStatsProjection } from './usage-stats-projection.js';
import { volunteerEventsProjection } from './volunteer-events-projection.js';

/** Every projection, in the order a short-lived command catches them up. */
export const PROJECTIONS: readonly Consumer[] = [pagesProjection, retrievalsProjection, volunteerEventsProjection, usageStatsProjection,
  // Core memory: revisions for `core diff`, remote-edit notices, the fact store, remember replays.
  coreRevisionsProjection, coreNoticesProjection, factsProjection, rememberRequestsProjection];
