import type { Brain } from '../brain/brain.js';
import { canRead, type Caller } from '../caller.js';
import { noPendingEditsMessage, renderCoreDiff } from '../core-memory/core-diff.js';
import { readRemoteRevisionState } from '../../projections/core-notices-queries.js';
import { readCoreRevision } from '../../projections/core-revisions-queries.js';
import { renderCoreText } from '../core-memory/core-text.js';
import { ackRevision, diffBaseRevision, latestPending } from '../core-memory/remote-revisions.js';
import { revisionToken } from '../core-memory/revision-token.js';
import type { Db } from '../db/db.js';
import { makeEvent, pageKey } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { utcDay } from '../pages/facts-table.js';
import { isPrivate } from '../pages/page.js';
import { findPage, type StoredPage } from '../../projections/pages-queries.js';

async function livePage(db: Db, caller: Caller, sourceId: string, slug: string): Promise<StoredPage> {
  const page = await findPage(db, sourceId, slug);
  if (!page || page.deleted || !canRead(caller, sourceId) || (caller.kind === 'remote' && isPrivate(page))) {
    throw new BrainstreamError('page_not_found', `no page ${sourceId}:${slug}`);
  }
  return page;
}

/**
 * `core ack SLUG --revision rN`: acknowledges rN and every earlier remote revision of the page.
 * Only a pending remote revision can be acked (`revision_not_found`, nothing changes). Owner
 * only: `core ack` and the `core_ack` operation refuse remote callers before this runs.
 */
export async function coreAck(brain: Brain, caller: Caller, sourceId: string, slug: string, token: string): Promise<{ source_id: string; slug: string; revision: string; pending: string | null }> {
  await livePage(brain.db, caller, sourceId, slug);
  const state = ackRevision(await readRemoteRevisionState(brain.db, sourceId, slug), token);
  await brain.commit([makeEvent('core.revision_acked', { source_id: sourceId, slug, version: state.acked_through }, { key: pageKey(sourceId, slug) })]);
  const next = latestPending(state);
  return { source_id: sourceId, slug, revision: revisionToken(state.acked_through), pending: next === null ? null : revisionToken(next) };
}

/**
 * `core diff SLUG`: unified diff of the page's core text from the base version (last acked, or
 * the one before the first pending remote revision) to the current one; the "no edits" line when
 * nothing is pending. Both sides render with today's date, so only edits show.
 */
export async function coreDiff(brain: Brain, caller: Caller, sourceId: string, slug: string, now = new Date()): Promise<{ pending: boolean; text: string }> {
  const page = await livePage(brain.db, caller, sourceId, slug);
  const state = await readRemoteRevisionState(brain.db, sourceId, slug);
  const base = diffBaseRevision(state);
  if (base === null) return { pending: false, text: noPendingEditsMessage(sourceId, slug) };
  const today = utcDay(now);
  const baseRow = base > 0 ? await readCoreRevision(brain.db, sourceId, slug, base) : null;
  const text = renderCoreDiff({
    source_id: sourceId,
    slug,
    baseRevision: base,
    currentRevision: page.version,
    baseText: baseRow ? renderCoreText(baseRow.compiled_truth, today) : '',
    currentText: renderCoreText(page.compiled_truth, today),
  });
  return { pending: true, text };
}
