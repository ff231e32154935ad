import type { Db } from '../../db/db.js';
import type { CorePageRow } from '../../core-memory/core-page.js';

/** Every row marked core (live or soft-deleted): all the core rules ever need to read. */
export async function loadCoreRows(db: Db): Promise<CorePageRow[]> {
  return db.query<CorePageRow>(
    `SELECT source_id, slug, title, frontmatter, compiled_truth, deleted
       FROM pages WHERE frontmatter->'always_load' = 'true'::jsonb`,
  );
}
