import type { Consumer } from '../src/log/consumer.js';
import { pagesProjection } from './pages-projection.js';
import { retrievalsProjection } from './retrievals-projection.js';
import { volunteerEventsProjection } from './volunteer-events-projection.js';

/** Every projection, in the order a short-lived command catches them up. */
export const PROJECTIONS: readonly Consumer[] = [pagesProjection, retrievalsProjection, volunteerEventsProjection];
