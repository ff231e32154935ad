import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { isMarkedCore, withheldReason } from '../core-memory/core-page.js';
import { buildCoreSection } from '../core-memory/core-section.js';
import type { CoreKeyEdit } from '../core-memory/frontmatter-core-keys.js';
import { BrainstreamError } from '../errors.js';
import { logger } from '../logger.js';
import { utcDay } from '../pages/facts-table.js';
import { isPrivate } from '../pages/page.js';
import { coreUsage, type CoreUsage } from './core-usage.js';
import { editPageGuarded, pageFields } from './core-page-write.js';
import { applyWriteThrough, planWriteThrough, type WriteThroughPlan } from './core-write-through.js';
import type { StoredPage } from '../../projections/pages-queries.js';

export interface CoreMarkResult {
  status: 'added' | 'removed' | 'unchanged';
  source_id: string;
  slug: string;
  priority: number;
  /** Size of the page's section: its heading and core text. */
  chars: number;
  /** Why the page never renders (private / quarantined), or null. */
  withheld: 'private' | 'quarantined' | null;
  usage: CoreUsage;
  /** The imported file edited alongside, or why it was not. */
  file: { path: string; written: boolean; reason?: string } | null;
}

const notFound = (sourceId: string, slug: string): BrainstreamError => new BrainstreamError('page_not_found', `no page ${sourceId}:${slug}`);

function visible(caller: Caller, page: StoredPage | null): page is StoredPage {
  return page !== null && !(caller.kind === 'remote' && isPrivate(page));
}

async function mark(
  brain: Brain,
  caller: Caller,
  sourceId: string,
  slug: string,
  kind: 'add' | 'remove',
  priority: number | undefined,
  now: Date,
): Promise<CoreMarkResult> {
  let file = { kind: 'none' } as WriteThroughPlan;
  const { plan } = await editPageGuarded(
    brain,
    caller,
    sourceId,
    slug,
    (row) => {
      // `core remove` also works on soft-deleted rows (doctor's fix for a deleted core page).
      if (!visible(caller, row) || (kind === 'add' && row.deleted)) throw notFound(sourceId, slug);
      const fm = { ...row.frontmatter };
      // A remote proposal carries only the core keys the caller asked for: the owner-only check
      // merges the stored ones back, and must not mistake a stored priority for a requested one.
      if (caller.kind === 'remote') delete fm.core_priority;
      let edit: CoreKeyEdit;
      if (kind === 'add') {
        fm.always_load = true;
        if (priority !== undefined) fm.core_priority = priority;
        edit = { set: { always_load: true, ...(priority === undefined ? {} : { core_priority: priority }) }, remove: [] };
      } else if (!isMarkedCore(row.frontmatter)) {
        return null;
      } else if (caller.kind === 'remote') {
        // Spelled out, so the owner-only rule sees the change instead of merging the key back;
        // it refuses it, on a soft-deleted row too (the mark there is still the owner's).
        fm.always_load = false;
        edit = { set: {}, remove: [] };
      } else {
        delete fm.always_load;
        delete fm.core_priority;
        edit = { set: {}, remove: ['always_load', 'core_priority'] };
      }
      if (caller.kind === 'owner') file = planWriteThrough(row, edit);
      return {
        next: { ...pageFields(row), frontmatter: fm },
        keep_deleted: true,
        ...(file.kind === 'write' ? { content_hash: file.contentHash } : {}),
      };
    },
    { now },
  );
  let written: CoreMarkResult['file'] = null;
  if (plan.changed && file.kind === 'write') {
    try {
      applyWriteThrough(file);
      written = { path: file.path, written: true };
    } catch (err) {
      logger.warn({ err, path: file.path }, 'core write-through failed');
      written = { path: file.path, written: false, reason: (err as Error).message };
    }
  } else if (plan.changed && file.kind === 'skipped') written = { path: file.path, written: false, reason: file.reason };
  const saved = { source_id: sourceId, slug, ...plan.page };
  const section = buildCoreSection(saved, utcDay(now));
  return {
    status: !plan.changed ? 'unchanged' : kind === 'add' ? 'added' : 'removed',
    source_id: sourceId,
    slug,
    priority: section.priority,
    chars: section.chars,
    withheld: withheldReason(saved),
    usage: await coreUsage(brain, now),
    file: written,
  };
}

/** `core add SLUG [--priority N]`: marks the page core (refused over budget; owner only). */
export const coreAdd = (brain: Brain, caller: Caller, sourceId: string, slug: string, priority?: number, now = new Date()) =>
  mark(brain, caller, sourceId, slug, 'add', priority, now);

/** `core remove SLUG`: drops `always_load` and `core_priority`; always passes (a shrink). */
export const coreRemove = (brain: Brain, caller: Caller, sourceId: string, slug: string, now = new Date()) =>
  mark(brain, caller, sourceId, slug, 'remove', undefined, now);
