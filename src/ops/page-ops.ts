import type { Brain } from '../brain/brain.js';
import { canRead, readableSources, type Caller } from '../caller.js';
import { makeEvent, pageKey } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { isPrivate } from '../pages/page.js';
import { remoteCompiledTruth } from '../pages/remote-view.js';
import { resolvePage } from '../pages/resolve-page.js';
import { checkRemoteDelete } from '../core-memory/owner-rules.js';
import { editPageGuarded } from './core-page-write.js';
import { withCoreWriteLock } from './core-write-lock.js';
import { findPage, listLivePages, listSources, type StoredPage } from './page-store.js';
import { unstorablePageProblem } from '../pages/storable-text.js';

export type PutStatus = 'created' | 'updated' | 'unchanged';

/**
 * `page put`: the markdown replaces the page in the caller's source. Every such write is
 * guarded by the core-memory rules (owner-only keys, remote-edit policy, budget) under the core
 * write lock, before its event is appended. A write that changes nothing is `unchanged`.
 */
export async function putPage(
  brain: Brain,
  caller: Caller,
  slug: string,
  markdown: string,
  options: { now?: Date } = {},
): Promise<{ source_id: string; slug: string; status: PutStatus }> {
  const sourceId = caller.source;
  const next = resolvePage(markdown, { slugHint: slug });
  const unstorable = unstorablePageProblem(next);
  if (unstorable !== null) throw new BrainstreamError('invalid_input', unstorable);
  // The stored content_hash is kept: it is what `import` last read from the page's file, so an
  // unchanged file does not undo this write on the next import.
  const { stored, plan } = await editPageGuarded(brain, caller, sourceId, slug, () => ({ next }), options);
  const status: PutStatus = !plan.changed ? 'unchanged' : stored && !stored.deleted ? 'updated' : 'created';
  return { source_id: sourceId, slug, status };
}

/** A live page the caller may read, in the form the caller may see; records a retrieval. */
export async function getPage(
  brain: Brain,
  caller: Caller,
  sourceId: string,
  slug: string,
  sessionId: string | null,
): Promise<StoredPage> {
  const page = await findPage(brain.db, sourceId, slug);
  const hidden = !page || page.deleted || !canRead(caller, sourceId) || (caller.kind === 'remote' && isPrivate(page));
  if (hidden) throw new BrainstreamError('page_not_found', `no page ${sourceId}:${slug}`);
  await brain.commit([
    makeEvent('page.retrieved', { source_id: sourceId, slug, session_id: sessionId }, { key: sessionId ?? pageKey(sourceId, slug) }),
  ]);
  return caller.kind === 'remote' ? { ...page!, compiled_truth: remoteCompiledTruth(page!.compiled_truth) } : page!;
}

/** Soft delete. Remote callers: only in their bound source, never a core page (core-memory §5.2). */
export async function deletePage(brain: Brain, caller: Caller, sourceId: string, slug: string): Promise<void> {
  if (caller.kind === 'remote' && sourceId !== caller.source) {
    throw new BrainstreamError('source_not_writable', `remote callers may delete only in their bound source (${caller.source})`);
  }
  // Under the core write lock, so a delete never interleaves with a guarded write of the same row.
  await withCoreWriteLock(brain, async (tx) => {
    const page = await findPage(tx, sourceId, slug);
    if (!page || page.deleted || (caller.kind === 'remote' && isPrivate(page))) {
      throw new BrainstreamError('page_not_found', `no page ${sourceId}:${slug}`);
    }
    if (caller.kind === 'remote') checkRemoteDelete(page);
    const origin = caller.kind === 'owner' ? 'owner' : 'remote';
    return { events: [makeEvent('page.deleted', { source_id: sourceId, slug, origin }, { key: pageKey(sourceId, slug) })], result: undefined };
  });
}

export async function listPages(brain: Brain, caller: Caller, sourceFilter: string | null): Promise<StoredPage[]> {
  const existing = await listSources(brain.db);
  let sources = readableSources(caller, existing);
  if (sourceFilter !== null) sources = sources.filter((s) => s === sourceFilter);
  const pages = await listLivePages(brain.db, sources);
  return caller.kind === 'remote' ? pages.filter((p) => !isPrivate(p)) : pages;
}
