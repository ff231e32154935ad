import { existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { coreNoticesProjection } from '../../projections/core-notices-projection.js';
import { pagesProjection } from '../../projections/pages-projection.js';
import { acquireBrainLock } from '../brain/brain-lock.js';
import { ensureHome, homePaths } from '../home.js';
import { coreRevision, renderBrainWideBlock, renderSessionBlock } from '../core-memory/core-block.js';
import { coreNoticeLines } from '../core-memory/core-notices.js';
import { migrate } from '../db/migrate.js';
import { openPgliteDb } from '../db/pglite-db.js';
import { catchUp } from '../event-log/consumer.js';
import { EmbeddedEventLog } from '../event-log/embedded-log.js';
import { loadCoreRows } from '../../projections/pages-queries.js';
import { readPendingCoreNotices } from '../../projections/core-notices-queries.js';
import type { CoreDelivery } from './core-delivery.js';

/** The only projections the core block and its notices read (pages, remote-edit notices). */
const CORE_PROJECTIONS = [pagesProjection, coreNoticesProjection];

/**
 * True when this process holds the brain (serve running a hook for the fast client): the brain
 * is open here already, and opening it a second time would take serve's own lock from under it.
 */
function thisProcessOwnsTheBrain(lockPath: string): boolean {
  try {
    return Number(readFileSync(lockPath, 'utf8').trim()) === process.pid;
  } catch {
    return false;
  }
}

/**
 * The owner's session block rendered by opening the brain in this process: the last resort of
 * `hook session-start` when neither serve nor its cache answers. It has
 * 1.5 s, most of which starting the embedded database takes, so it opens the database without
 * the full Brain (no other projections, stream followers or their modules) and catches up only
 * the two projections it reads. A home without a database has no core: nothing is created.
 * Never inside the process that owns the brain (serve answers `core_block` there).
 */
export async function renderCoreDirect(home: string, sourceId: string, now: Date): Promise<CoreDelivery> {
  const paths = homePaths(home);
  const today = now.toISOString().slice(0, 10);
  if (!existsSync(paths.database)) return { text: '', revision: coreRevision(''), notices: [], via: 'direct' };
  ensureHome(home);
  if (thisProcessOwnsTheBrain(paths.lock)) throw new Error('this process owns the brain; serve answers core_block itself');
  const release = acquireBrainLock(paths.lock);
  try {
    // This process exits right after: the database's WebAssembly runs with the baseline compiler
    // only, skipping the optimising recompilation of hot functions it would never profit from
    // (about a third of the start-up CPU).
    setFlagsFromString('--liftoff-only');
    const db = await openPgliteDb(paths.database);
    try {
      await migrate(db);
      const log = new EmbeddedEventLog(db);
      for (const projection of CORE_PROJECTIONS) await catchUp(db, log, projection);
      const rows = await loadCoreRows(db);
      const block = renderSessionBlock(rows, { sessionSource: sourceId, readable: null }, today);
      const notices = coreNoticeLines(await readPendingCoreNotices(db));
      return { text: block.text, revision: coreRevision(renderBrainWideBlock(rows, today).text), notices, via: 'direct' };
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}
