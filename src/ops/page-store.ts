import type { Db } from '../db/db.js';
import type { Page } from '../pages/page.js';

export interface StoredPage extends Page {
  content_hash: string;
  file_path: string | null;
  version: number;
  deleted: boolean;
  last_retrieved_at: string | null;
}

interface PageRow extends Omit<StoredPage, 'last_retrieved_at'> {
  last_retrieved_at: Date | string | null;
}

const COLUMNS = `source_id, slug, title, type, frontmatter, compiled_truth, timeline, content_hash, file_path, version,
  deleted, last_retrieved_at`;

const toPage = (r: PageRow): StoredPage => ({
  ...r,
  version: Number(r.version),
  last_retrieved_at: r.last_retrieved_at === null ? null : new Date(r.last_retrieved_at).toISOString(),
});

/** Reads of the `pages` projection. */
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

/** Code-unit order, as the specs require (SQL collation may differ). */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
