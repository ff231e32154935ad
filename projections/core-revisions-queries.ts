import type { Db } from '../src/db/db.js';

/** One saved version of a core page (compiled truth as saved), or null when it was not kept. */
export async function readCoreRevision(
  db: Db,
  sourceId: string,
  slug: string,
  version: number,
): Promise<{ title: string; frontmatter: Record<string, unknown>; compiled_truth: string } | null> {
  const [row] = await db.query<{ title: string; frontmatter: Record<string, unknown>; compiled_truth: string }>(
    'SELECT title, frontmatter, compiled_truth FROM core_revisions WHERE source_id = $1 AND slug = $2 AND version = $3',
    [sourceId, slug, version],
  );
  return row ?? null;
}
