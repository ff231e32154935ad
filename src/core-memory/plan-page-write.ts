import { makeEvent, pageKey, type Envelope } from '../domain/events.js';
import type { CorePageRow } from './core-page.js';
import type { HiddenPart } from '../pages/hidden-parts.js';
import { guardPageWrite } from './page-write-guard.js';
import type { RemoteEditOutcome, RemoteEditPolicy } from './remote-edit.js';

/** The stored columns of a page a write proposes. */
export interface PageFields {
  title: string;
  type: string;
  frontmatter: Record<string, unknown>;
  compiled_truth: string;
  timeline: string;
}

/**
 * The stored row a write replaces (a `StoredPage` fits). A soft-deleted row counts as absent for
 * the budget, but its `always_load` still counts as the owner's mark for the owner-only keys and
 * the remote-edit policy.
 */
export interface StoredRow extends PageFields {
  source_id: string;
  slug: string;
  version: number;
  deleted: boolean;
  content_hash: string;
  file_path: string | null;
}

/** What every write under one lock shares; `corePages` follows the writes planned so far. */
export interface PageWritePlanner {
  caller: { kind: 'owner' | 'remote'; grant: readonly string[] | null };
  maxChars: number;
  remoteEdit: RemoteEditPolicy;
  today: string;
  /** Every row marked core (live or deleted), as it will be after the writes planned so far. */
  corePages: CorePageRow[];
}

export interface PageWriteRequest {
  source_id: string;
  slug: string;
  stored: StoredRow | null;
  next: PageFields;
  /** Defaults to the stored hash (a synthesized write keeps what import compares against). */
  content_hash?: string;
  /** Defaults to the stored file path. */
  file_path?: string | null;
  /** Keep a soft-deleted row deleted (`core remove` on a deleted page). */
  keep_deleted?: boolean;
  /** Hidden parts of the stored page a remote write kept. */
  kept_hidden?: HiddenPart[];
}

export interface PlannedPageWrite {
  /** False: the saved row would equal the stored one, nothing is written (a no-op). */
  changed: boolean;
  /** The row as saved (remote: omitted core keys merged back). */
  page: PageFields;
  /** The version number the write saves (revision token r<N>). */
  version: number;
  remoteEdit: RemoteEditOutcome;
  events: Envelope[];
}

const row = (sourceId: string, slug: string, p: PageFields, deleted = false): CorePageRow & PageFields => ({
  source_id: sourceId,
  slug,
  title: p.title,
  type: p.type,
  frontmatter: p.frontmatter,
  compiled_truth: p.compiled_truth,
  timeline: p.timeline,
  deleted,
});

/**
 * Plans one guarded page write: owner-only keys → remote-edit policy →
 * budget over the brain-wide block as it will be, throwing the refusal; then the events to
 * append (the page version, and the remote-edit notice under `notify`). Updates
 * `planner.corePages` so a second write under the same lock is measured after the first.
 */
export function planPageWrite(planner: PageWritePlanner, req: PageWriteRequest): PlannedPageWrite {
  const guarded = guardPageWrite({
    caller: planner.caller.kind,
    readable: planner.caller.grant,
    budgeted: true,
    stored: req.stored ? row(req.source_id, req.slug, req.stored, req.stored.deleted) : null,
    next: row(req.source_id, req.slug, req.next),
    corePages: planner.corePages,
    maxChars: planner.maxChars,
    remoteEdit: planner.remoteEdit,
    today: planner.today,
  });
  const { deleted: _deleted, source_id: _s, slug: _g, ...saved } = guarded.page;
  const version = (req.stored?.version ?? 0) + 1;
  const keepDeleted = req.keep_deleted === true && req.stored?.deleted === true;
  if (!guarded.changed && !keepDeleted) return { changed: false, page: saved, version: req.stored?.version ?? 0, remoteEdit: 'exempt', events: [] };

  const key = pageKey(req.source_id, req.slug);
  const origin = planner.caller.kind === 'owner' ? 'owner' : 'remote';
  const events: Envelope[] = [
    makeEvent(
      'page.upserted',
      {
        source_id: req.source_id,
        slug: req.slug,
        ...saved,
        content_hash: req.content_hash ?? req.stored?.content_hash ?? '',
        file_path: req.file_path === undefined ? (req.stored?.file_path ?? null) : req.file_path,
        origin,
        ...(origin === 'remote' && req.kept_hidden && req.kept_hidden.length > 0 ? { kept_hidden: req.kept_hidden } : {}),
      },
      { key },
    ),
  ];
  if (keepDeleted) events.push(makeEvent('page.deleted', { source_id: req.source_id, slug: req.slug, origin }, { key }));
  if (guarded.remoteEdit === 'notify') {
    events.push(makeEvent('core.remote_edit_noticed', { source_id: req.source_id, slug: req.slug, version }, { key }));
  }
  planner.corePages = [
    ...planner.corePages.filter((p) => !(p.source_id === req.source_id && p.slug === req.slug)),
    ...(saved.frontmatter.always_load === true ? [row(req.source_id, req.slug, saved, keepDeleted)] : []),
  ];
  return { changed: true, page: saved, version, remoteEdit: guarded.remoteEdit, events };
}

