import type { Caller } from '../caller.js';
import { decideOneShot, type OneShotRequest, type OneShotResult } from './volunteer-once.js';
import { coldIndexFor } from '../cold/cold-index.js';
import { spoolEvents } from '../cold/spool.js';

/**
 * A one-shot decision without opening the database: the pages the window could name are read
 * from the page-index snapshot, the decision is the same function the open brain runs, and the
 * volunteered events go to the spool for the next owner of the brain to append. Null when the
 * snapshot is missing, behind the log or unreadable: the caller then opens the brain.
 */
export function coldOneShot(home: string, caller: Caller, req: OneShotRequest): OneShotResult | null {
  const index = coldIndexFor(home, [req.window, req.priorContext ?? '']);
  if (index === null) return null;
  const { pages, windowTurns, events } = decideOneShot(index, caller, req);
  spoolEvents(home, events);
  return { pages, windowTurns };
}
