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
import { findPage, listLivePages, listSources, type StoredPage } from '../../projections/pages-queries.js';
import { unstorablePageProblem } from '../pages/storable-text.js';
import { mergeHiddenParts, type HiddenPart } from '../pages/hidden-parts.js';
import type { PageFields } from '../core-memory/plan-page-write.js';
import { logger } from '../logger.js';

export type PutStatus = 'created' | 'updated' | 'unchanged';

/** A live page this caller may not see: absent, for every answer it gets. */
const hiddenFrom = (caller: Caller, page: StoredPage | null): boolean =>
  page !== null && !page.deleted && (!canRead(caller, page.source_id) || (caller.kind === 'remote' && isPrivate(page)));

const CORE_KEYS = ['always_load', 'core_priority'] as const;

/**
 * What a remote write saves of `next` over the live page it replaces: the stored parts it could
 * not see (takes, private facts) merged back, and the core keys it left out kept; `kept` names them.
 */
function keepHiddenParts(stored: StoredPage | null, next: PageFields): { next: PageFields; kept: HiddenPart[] } {
  if (stored === null || stored.deleted) return { next, kept: [] };
  const merged = mergeHiddenParts(stored.compiled_truth, next.compiled_truth);
  const keptKeys = CORE_KEYS.some((k) => Object.hasOwn(stored.frontmatter, k) && !Object.hasOwn(next.frontmatter, k));
  const kept: HiddenPart[] = [...merged.kept, ...(keptKeys ? (['core_keys'] as const) : [])];
  return { next: { ...next, compiled_truth: merged.text }, kept };
}

/**
 * `page put`: the markdown replaces the page in the caller's source. Every such write is
 * guarded by the core-memory rules (owner-only keys, remote-edit policy, budget) under the core
 * write lock, before its event is appended. A write that changes nothing is `unchanged`.
 *
 * A remote caller never learns of nor touches a page it may not read: a write to the slug of a
 * private page is answered `created`, exactly as for a free slug, and the page stays as it was.
 * A remote write over a page it can read keeps the parts it could not see, and the saved version
 * says so (`kept_hidden`), for the owner to review.
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
  let hidden = false;
  // The stored content_hash is kept: it is what `import` last read from the page's file, so an
  // unchanged file does not undo this write on the next import.
  const { stored, plan } = await editPageGuarded(
    brain,
    caller,
    sourceId,
    slug,
    (current) => {
      if (caller.kind === 'owner') return { next };
      if (hiddenFrom(caller, current)) {
        hidden = true;
        return null;
      }
      const merged = keepHiddenParts(current, next);
      return { next: merged.next, kept_hidden: merged.kept };
    },
    options,
  );
  if (hidden) {
    logger.debug({ source_id: sourceId, slug }, 'a remote write to a page it may not see was discarded');
    return { source_id: sourceId, slug, status: 'created' };
  }
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
  if (!page || page.deleted || hiddenFrom(caller, page)) throw new BrainstreamError('page_not_found', `no page ${sourceId}:${slug}`);
  await brain.commit([
    makeEvent('page.retrieved', { source_id: sourceId, slug, session_id: sessionId }, { key: sessionId ?? pageKey(sourceId, slug) }),
  ]);
  return caller.kind === 'remote' ? { ...page!, compiled_truth: remoteCompiledTruth(page!.compiled_truth) } : page!;
}

/** Soft delete. Remote callers: only in their bound source, never a core page (only the owner takes pages out of core). */
export async function deletePage(brain: Brain, caller: Caller, sourceId: string, slug: string): Promise<void> {
  if (caller.kind === 'remote' && sourceId !== caller.source) {
    throw new BrainstreamError('source_not_writable', `remote callers may delete only in their bound source (${caller.source})`);
  }
  // Under the core write lock, so a delete never interleaves with a guarded write of the same row.
  await withCoreWriteLock(brain, async (tx) => {
    const page = await findPage(tx, sourceId, slug);
    if (!page || page.deleted || hiddenFrom(caller, page)) {
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
