import type { Brain } from '../brain/brain.js';
import { canRead, readableSources, type Caller } from '../caller.js';
import { makeEvent, pageKey } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { isPrivate } from '../pages/page.js';
import { remoteCompiledTruth } from '../pages/remote-view.js';
import { resolvePage } from '../pages/resolve-page.js';
import { findPage, listLivePages, listSources, type StoredPage } from './page-store.js';
import { hashBytes } from './read-page-file.js';

export type PutStatus = 'created' | 'updated' | 'unchanged';

/** A page write guard (core-memory rules) may refuse or rewrite the page before it is saved. */
export type PageWriteGuard = (input: {
  brain: Brain;
  caller: Caller;
  sourceId: string;
  slug: string;
  existing: StoredPage | null;
  page: ReturnType<typeof resolvePage>;
}) => Promise<ReturnType<typeof resolvePage>>;

let writeGuard: PageWriteGuard | null = null;
/** Installed once by the core-memory module so every page write goes through its checks. */
export function installPageWriteGuard(guard: PageWriteGuard): void {
  writeGuard = guard;
}

export async function putPage(brain: Brain, caller: Caller, slug: string, markdown: string): Promise<{ source_id: string; slug: string; status: PutStatus }> {
  const sourceId = caller.source;
  const existing = await findPage(brain.db, sourceId, slug);
  const live = existing && !existing.deleted ? existing : null;
  const hash = hashBytes(markdown);
  let page = resolvePage(markdown, { slugHint: slug });
  if (writeGuard) page = await writeGuard({ brain, caller, sourceId, slug, existing: live, page });
  if (live && live.content_hash === hash && sameContent(live, page)) return { source_id: sourceId, slug, status: 'unchanged' };
  await brain.commit([
    makeEvent(
      'page.upserted',
      { source_id: sourceId, slug, ...page, content_hash: hash, file_path: null, origin: caller.kind === 'owner' ? 'owner' : 'remote' },
      { key: pageKey(sourceId, slug) },
    ),
  ]);
  return { source_id: sourceId, slug, status: live ? 'updated' : 'created' };
}

function sameContent(a: StoredPage, b: ReturnType<typeof resolvePage>): boolean {
  return (
    a.title === b.title &&
    a.type === b.type &&
    a.compiled_truth === b.compiled_truth &&
    a.timeline === b.timeline &&
    JSON.stringify(a.frontmatter) === JSON.stringify(b.frontmatter)
  );
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

export type PageDeleteGuard = (input: { brain: Brain; caller: Caller; page: StoredPage }) => Promise<void>;
let deleteGuard: PageDeleteGuard | null = null;
export function installPageDeleteGuard(guard: PageDeleteGuard): void {
  deleteGuard = guard;
}

export async function deletePage(brain: Brain, caller: Caller, sourceId: string, slug: string): Promise<void> {
  if (caller.kind === 'remote' && sourceId !== caller.source) {
    throw new BrainstreamError('source_not_writable', `remote callers may delete only in their bound source (${caller.source})`);
  }
  const page = await findPage(brain.db, sourceId, slug);
  if (!page || page.deleted || (caller.kind === 'remote' && isPrivate(page))) {
    throw new BrainstreamError('page_not_found', `no page ${sourceId}:${slug}`);
  }
  if (deleteGuard) await deleteGuard({ brain, caller, page });
  await brain.commit([
    makeEvent('page.deleted', { source_id: sourceId, slug, origin: caller.kind === 'owner' ? 'owner' : 'remote' }, { key: pageKey(sourceId, slug) }),
  ]);
}

export async function listPages(brain: Brain, caller: Caller, sourceFilter: string | null): Promise<StoredPage[]> {
  const existing = await listSources(brain.db);
  let sources = readableSources(caller, existing);
  if (sourceFilter !== null) sources = sources.filter((s) => s === sourceFilter);
  const pages = await listLivePages(brain.db, sources);
  return caller.kind === 'remote' ? pages.filter((p) => !isPrivate(p)) : pages;
}
