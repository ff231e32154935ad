import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { brainConfig } from '../config/brain-config.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { planPageWrite, type PageFields, type PageWritePlanner, type PlannedPageWrite, type StoredRow } from '../core-memory/plan-page-write.js';
import type { Db } from '../db/db.js';
import type { HiddenPart } from '../pages/hidden-parts.js';
import { utcDay } from '../pages/facts-table.js';
import { loadCoreRows } from '../../projections/pages-queries.js';
import { withCoreWriteLock } from './core-write-lock.js';
import { findPage, type StoredPage } from '../../projections/pages-queries.js';

/** The rules every guarded write of one lock is checked with, read fresh under the lock. */
export async function openPlanner(tx: Db, brain: Brain, caller: Caller, now: Date): Promise<PageWritePlanner> {
  const settings = memorySettings(brainConfig(brain));
  return {
    caller: { kind: caller.kind, grant: caller.grant },
    maxChars: settings.maxChars,
    remoteEdit: settings.remoteEdit,
    today: utcDay(now),
    corePages: await loadCoreRows(tx),
  };
}

export const pageFields = (p: StoredPage): PageFields => ({
  title: p.title,
  type: p.type,
  frontmatter: p.frontmatter,
  compiled_truth: p.compiled_truth,
  timeline: p.timeline,
});

export interface GuardedEdit {
  /** The page as it should be saved, from the stored row read under the lock. */
  next: PageFields;
  content_hash?: string;
  file_path?: string | null;
  keep_deleted?: boolean;
  /** Hidden parts of the stored page a remote write kept (recorded on the saved version). */
  kept_hidden?: HiddenPart[];
}

export interface GuardedEditResult {
  /** The row before the write (deleted rows included); null when there was none. */
  stored: StoredPage | null;
  plan: PlannedPageWrite;
}

/**
 * One guarded page write (owner-only keys, remote-edit policy, budget) of `sourceId:slug`: under the core write lock,
 * reads the stored row, lets `edit` derive the new page from it (null: leave the stored row as
 * it is; or throw, e.g. page_not_found), checks owner-only keys → remote-edit policy → budget,
 * and appends the page event (plus the remote-edit notice) only if every check passed. A write
 * that changes nothing appends nothing.
 */
export function editPageGuarded(
  brain: Brain,
  caller: Caller,
  sourceId: string,
  slug: string,
  edit: (stored: StoredPage | null) => GuardedEdit | null,
  options: { now?: Date } = {},
): Promise<GuardedEditResult> {
  const now = options.now ?? new Date();
  return withCoreWriteLock(brain, async (tx) => {
    const stored = await findPage(tx, sourceId, slug);
    const change = edit(stored);
    if (change === null) {
      const page = pageFields(stored!);
      return { events: [], result: { stored, plan: { changed: false, page, version: stored?.version ?? 0, remoteEdit: 'exempt' as const, events: [] } } };
    }
    const planner = await openPlanner(tx, brain, caller, now);
    const plan = planPageWrite(planner, { source_id: sourceId, slug, stored: stored as StoredRow | null, ...change });
    return { events: plan.events, result: { stored, plan } };
  });
}
