import { cmp } from '../src/code-unit-order.js';
import type { Db } from '../src/db/db.js';
import type { Page } from '../src/pages/page.js';
import type { CorePageRow } from '../src/core-memory/core-page.js';
import { PAGES_PROJECTION } from './pages-projection.js';

export interface StoredPage extends Page {
  content_hash: string;
  file_path: string | null;
  version: number;
  deleted: boolean;
  last_retrieved_at: string | null;
  /** The last remote write that kept parts of the page its caller could not see, until the owner writes it. */
  remote_write: RemoteWrite | null;
}

export interface RemoteWrite {
  at: string;
  kept: string[];
}

interface PageRow extends Omit<StoredPage, 'last_retrieved_at'> {
  last_retrieved_at: Date | string | null;
}

const COLUMNS = `source_id, slug, title, type, frontmatter, compiled_truth, timeline, content_hash, file_path, version,
  deleted, last_retrieved_at, remote_write`;

const toPage = (r: PageRow): StoredPage => ({
  ...r,
  version: Number(r.version),
  last_retrieved_at: r.last_retrieved_at === null ? null : new Date(r.last_retrieved_at).toISOString(),
  remote_write: r.remote_write ?? null,
});

/** Reads of the `pages` projection: the one place other code asks it anything. */
export async function findPage(db: Db, sourceId: string, slug: string): Promise<StoredPage | null> {
  const [row] = await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE source_id = $1 AND slug = $2`, [sourceId, slug]);
  return row ? toPage(row) : null;
}

export async function listLivePages(db: Db, sources: readonly string[] | null): Promise<StoredPage[]> {
  const rows =
    sources === null
      ? await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE NOT deleted ORDER BY source_id, slug`)
      : await db.query<PageRow>(`SELECT ${COLUMNS} FROM pages WHERE NOT deleted AND source_id = ANY($1::text[]) ORDER BY source_id, slug`, [
          sources,
        ]);
  return rows.map(toPage).sort((a, b) => cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug));
}

export async function listSources(db: Db): Promise<string[]> {
  const rows = await db.query<{ source_id: string }>('SELECT DISTINCT source_id FROM pages ORDER BY source_id');
  return rows.map((r) => r.source_id).sort(cmp);
}

/** Live pages a remote write changed while keeping parts it could not see, newest first. */
export async function listRemoteWrites(db: Db, sources: readonly string[] | null): Promise<{ source_id: string; slug: string; remote_write: RemoteWrite }[]> {
  const rows = await db.query<{ source_id: string; slug: string; remote_write: RemoteWrite }>(
    `SELECT source_id, slug, remote_write FROM pages WHERE remote_write IS NOT NULL AND NOT deleted
       AND ($1::text[] IS NULL OR source_id = ANY($1::text[]))`,
    [sources],
  );
  return rows.sort((a, b) => cmp(b.remote_write.at, a.remote_write.at) || cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug));
}

/** Every row marked core (live or soft-deleted): all the core rules ever need to read. */
export async function loadCoreRows(db: Db): Promise<CorePageRow[]> {
  return db.query<CorePageRow>(
    `SELECT source_id, slug, title, frontmatter, compiled_truth, deleted
       FROM pages WHERE frontmatter->'always_load' = 'true'::jsonb`,
  );
}

/** Per slug of a source, deleted pages included: the hash of the file bytes last imported, and whether the page is live. */
export async function importedPageHashes(db: Db, sourceId: string): Promise<{ slug: string; content_hash: string; deleted: boolean }[]> {
  return db.query<{ slug: string; content_hash: string; deleted: boolean }>('SELECT slug, content_hash, deleted FROM pages WHERE source_id = $1', [sourceId]);
}

export type IndexedPage = Pick<Page, 'source_id' | 'slug' | 'title' | 'type' | 'frontmatter' | 'compiled_truth' | 'timeline'>;

/**
 * The live pages with the log position the projection has applied, read in one transaction: a
 * consistent snapshot to load the page index from and follow the log after.
 */
export async function livePagesSnapshot(db: Db): Promise<{ position: number; pages: IndexedPage[] }> {
  return db.transaction(async (tx) => {
    const [cp] = await tx.query<{ position: number }>('SELECT position FROM checkpoints WHERE consumer = $1', [PAGES_PROJECTION]);
    const pages = await tx.query<IndexedPage>('SELECT source_id, slug, title, type, frontmatter, compiled_truth, timeline FROM pages WHERE NOT deleted');
    return { position: cp ? Number(cp.position) : 1, pages };
  });
}
