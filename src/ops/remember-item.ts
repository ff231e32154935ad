import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { normalizeAlias } from '../context/strings.js';
import { findDuplicateFact, nextFactId, type StoredFact } from '../../projections/facts-queries.js';
import { planPageWrite, type PageWritePlanner } from '../core-memory/plan-page-write.js';
import type { RememberItem } from '../core-memory/remember-params.js';
import type { RememberItemOutcome } from '../core-memory/remember-replay.js';
import { rememberRowFields } from '../core-memory/remember-row.js';
import type { Db } from '../db/db.js';
import { makeEvent, type Envelope } from '../domain/events.js';
import { appendFactRow, supersedeFactRow, updateFactRow } from '../pages/facts-fence.js';
import { utcDay } from '../pages/facts-table.js';
import { isPrivate } from '../pages/page.js';
import { openPlanner, pageFields } from './core-page-write.js';
import { withCoreWriteLock } from './core-write-lock.js';
import { findPage, type StoredPage } from '../../projections/pages-queries.js';

export type ItemOutcome = Omit<RememberItemOutcome, 'index'>;

/** A live page the caller may write facts into (remote callers never see private pages). */
export async function writablePage(tx: Db, caller: Caller, sourceId: string, slug: string | null): Promise<StoredPage | null> {
  if (slug === null) return null;
  const page = await findPage(tx, sourceId, slug);
  return page && !page.deleted && !(caller.kind === 'remote' && isPrivate(page)) ? page : null;
}

/** Strikes `old`'s row on its page as `superseded by #<by>`; the page write is guarded like any other. */
async function strikeSuperseded(tx: Db, caller: Caller, planner: PageWritePlanner, old: StoredFact, by: number): Promise<Envelope[]> {
  if (old.page_row === null) return [];
  const page = await writablePage(tx, caller, old.source_id, old.entity);
  if (!page) return [];
  const updated = updateFactRow(page.compiled_truth, old.page_row, (r) => (r.active ? supersedeFactRow(r, by) : r));
  if (!updated) return [];
  return planPageWrite(planner, { source_id: page.source_id, slug: page.slug, stored: page, next: { ...pageFields(page), compiled_truth: updated.compiled_truth } }).events;
}

/**
 * Saves one validated `remember` item as its own write, under the core write
 * lock: a duplicate writes nothing; a fact about an existing entity page becomes a row of that
 * page's facts fence (a guarded page write: budget, and the remote-edit policy on core pages);
 * any other fact lives in the fact store only. Throws the refusal (nothing written then).
 */
export function rememberItem(brain: Brain, caller: Caller, item: RememberItem, supersedes: StoredFact | null, now: Date): Promise<ItemOutcome> {
  return withCoreWriteLock<ItemOutcome>(brain, async (tx) => {
    const source = caller.source;
    // Key order is the response's: id, status, status_text, entity_slug (when given), valid_until.
    const outcome = (id: number, status: 'inserted' | 'duplicate' | 'superseded', text: string): ItemOutcome => ({
      id: String(id),
      status,
      status_text: text,
      ...(item.entity === null ? {} : { entity_slug: item.entity }),
      valid_until: item.valid_until,
    });
    const duplicate = await findDuplicateFact(tx, source, item.entity, normalizeAlias(item.fact));
    if (duplicate && duplicate.id !== supersedes?.id) {
      return { events: [], result: outcome(duplicate.id, 'duplicate', `already remembered as #${duplicate.id}`) };
    }
    const id = await nextFactId(tx);
    const planner = await openPlanner(tx, brain, caller, now);
    const today = utcDay(now);
    const events: Envelope[] = [];
    const page = await writablePage(tx, caller, source, item.entity);
    let pageRow: number | null = null;
    let struckHere = false;
    if (page) {
      const appended = appendFactRow(page.compiled_truth, rememberRowFields(item, today));
      pageRow = appended.row.row;
      let compiled = appended.compiled_truth;
      if (supersedes && supersedes.page_row !== null && supersedes.source_id === source && supersedes.entity === page.slug) {
        const updated = updateFactRow(compiled, supersedes.page_row, (r) => (r.active ? supersedeFactRow(r, pageRow!) : r));
        if (updated) compiled = updated.compiled_truth;
        struckHere = true;
      }
      events.push(...planPageWrite(planner, { source_id: source, slug: page.slug, stored: page, next: { ...pageFields(page), compiled_truth: compiled } }).events);
    }
    if (supersedes && !struckHere) events.push(...(await strikeSuperseded(tx, caller, planner, supersedes, pageRow ?? id)));
    events.push(
      makeEvent(
        'fact.recorded',
        {
          fact_id: id,
          source_id: source,
          entity: item.entity,
          page_row: pageRow,
          fact: item.fact,
          kind: item.kind,
          visibility: item.visibility,
          provenance: item.provenance,
          valid_from: today,
          valid_until: item.valid_until,
          supersedes: supersedes?.id ?? null,
        },
        { key: `fact/${id}` },
      ),
    );
    const where = page ? `saved on ${page.slug} as row #${pageRow}` : 'saved in the fact store';
    const status = supersedes ? ('superseded' as const) : ('inserted' as const);
    const text = supersedes ? `superseded #${supersedes.id}; ${where}` : where;
    return { events, result: outcome(id, status, text) };
  });
}
