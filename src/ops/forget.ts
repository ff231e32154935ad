import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import { findFact } from '../../projections/facts-queries.js';
import { parseFactId } from '../core-memory/fact-id.js';
import { planPageWrite } from '../core-memory/plan-page-write.js';
import { makeEvent, type Envelope } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { forgetFactRow, updateFactRow } from '../pages/facts-fence.js';
import { utcDay } from '../pages/facts-table.js';
import { openPlanner, pageFields } from './core-page-write.js';
import { withCoreWriteLock } from './core-write-lock.js';
import { writablePage } from './remember-item.js';

const DEFAULT_FORGET_REASON = 'user request';

export interface ForgetResponse {
  id: string;
  status: 'forgotten' | 'unchanged';
  status_text: string;
  entity_slug: string | null;
  valid_until: string;
  protocol_version: 1;
}

/**
 * `forget ID [--reason TEXT]`: withdraws a fact. On its entity page the row's
 * claim is struck, `valid_until` set to today and the reason added to its context, as a guarded
 * page write (the remote-edit policy applies on core pages); the fact store marks it forgotten.
 * Unknown ids, and facts the caller may not touch (another source; remote: private) →
 * `fact_not_found`. A fact already withdrawn is left as it is.
 */
export function forget(brain: Brain, caller: Caller, rawId: string | number, reason?: string, options: { now?: Date } = {}): Promise<ForgetResponse> {
  const now = options.now ?? new Date();
  const today = utcDay(now);
  const why = reason === undefined || reason.trim() === '' ? DEFAULT_FORGET_REASON : reason.trim();
  return withCoreWriteLock<ForgetResponse>(brain, async (tx) => {
    const id = parseFactId(rawId);
    const fact = id === null ? null : await findFact(tx, id);
    const mayTouch = fact !== null && (caller.kind === 'owner' || (fact.source_id === caller.source && fact.visibility === 'world'));
    if (!fact || !mayTouch) {
      throw new BrainstreamError('fact_not_found', `no fact ${JSON.stringify(String(rawId))}${caller.kind === 'remote' ? ` in source ${caller.source}` : ''}; see brainstream facts list`, {
        id: String(rawId),
      });
    }
    const base = { id: String(fact.id), entity_slug: fact.entity, protocol_version: 1 as const };
    if (fact.status !== 'active') {
      return { events: [], result: { ...base, status: 'unchanged', status_text: `#${fact.id} was already ${fact.status}`, valid_until: fact.valid_until ?? today } };
    }
    const events: Envelope[] = [];
    const page = fact.page_row === null ? null : await writablePage(tx, caller, fact.source_id, fact.entity);
    const updated = page ? updateFactRow(page.compiled_truth, fact.page_row!, (r) => (r.active ? forgetFactRow(r, why, today) : r)) : null;
    if (page && updated) {
      const planner = await openPlanner(tx, brain, caller, now);
      const next = { ...pageFields(page), compiled_truth: updated.compiled_truth };
      events.push(...planPageWrite(planner, { source_id: page.source_id, slug: page.slug, stored: page, next }).events);
    }
    events.push(makeEvent('fact.forgotten', { fact_id: fact.id, source_id: fact.source_id, reason: why, valid_until: today }, { key: `fact/${fact.id}` }));
    const where = page && updated ? ` (struck on ${page.slug}, row #${fact.page_row})` : '';
    return { events, result: { ...base, status: 'forgotten', status_text: `forgotten: ${why}${where}`, valid_until: today } };
  });
}
