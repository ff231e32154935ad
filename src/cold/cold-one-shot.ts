import type { Caller } from '../caller.js';
import { decideOneShot, type OneShotRequest, type OneShotResult } from '../ops/volunteer-once.js';
import { coldPaths, snapshotCurrent } from './cold-files.js';
import { lookUpSnapshot } from './page-snapshot.js';
import { windowWords } from './snapshot-keys.js';
import { spoolEvents } from './spool.js';

/**
 * A one-shot decision without opening the database: the pages the window could name are read
 * from the page-index snapshot, the decision is the same function the open brain runs, and the
 * volunteered events go to the spool for the next owner of the brain to append. Null when the
 * snapshot is missing, behind the log or unreadable: the caller then opens the brain.
 */
export function coldOneShot(home: string, caller: Caller, req: OneShotRequest): OneShotResult | null {
  if (!snapshotCurrent(home)) return null;
  let index;
  try {
    index = lookUpSnapshot(coldPaths(home).snapshot, windowWords([req.window, req.priorContext ?? ''])).index;
  } catch {
    return null;
  }
  const { pages, windowTurns, events } = decideOneShot(index, caller, req);
  spoolEvents(home, events);
  return { pages, windowTurns };
}
