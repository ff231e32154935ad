import type { Caller } from '../caller.js';
import { coreRevision, renderBrainWideBlock, renderSessionBlock, type CoreBlock } from '../core-memory/core-block.js';
import { readPendingCoreNotices } from '../../projections/core-notices-queries.js';
import type { PendingNotice } from '../core-memory/core-notices.js';
import type { Db } from '../db/db.js';
import { utcDay } from '../pages/facts-table.js';
import { loadCoreRows } from '../../projections/pages-queries.js';

/**
 * Delivery helpers for every surface that hands core to a session (hook session-start, serve's
 * `core_block`, MCP `context_pack`, `compile-context`, `core show`).
 *
 * They render what the rules say for the caller and nothing more: they do NOT check
 * `memory.core.enabled` nor `BRAINSTREAM_CORE=0`. Those switches belong to
 * the delivery surface: a hook reads its own environment, serve reads the config per request,
 * and `core show` deliberately previews the block while core is off.
 */

/**
 * The session block of `caller`: the default source's renderable core pages, then its
 * own source's; private, quarantined, deleted pages and unreadable sources never appear.
 * Owner callers have `grant: null` (every source readable).
 */
export async function sessionCoreBlock(db: Db, caller: Pick<Caller, 'source' | 'grant'>, now = new Date()): Promise<CoreBlock> {
  return renderSessionBlock(await loadCoreRows(db), { sessionSource: caller.source, readable: caller.grant }, utcDay(now));
}

/** `core_revision` (a hash of the brain-wide block, no page text): what compiled files and heartbeats record. */
export async function currentCoreRevision(db: Db, now = new Date()): Promise<string> {
  return coreRevision(renderBrainWideBlock(await loadCoreRows(db), utcDay(now)).text);
}

/** Pending remote-edit notices of the pages `caller` may read (owner: all). */
export async function pendingNoticesFor(db: Db, caller: Pick<Caller, 'grant'>): Promise<PendingNotice[]> {
  const all = await readPendingCoreNotices(db);
  return caller.grant === null ? all : all.filter((n) => caller.grant!.includes(n.source_id));
}
