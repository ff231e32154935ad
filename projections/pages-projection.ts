import { chunkRowsForParams, valuesPlaceholders, type Db } from '../src/db/db.js';
import type { PageUpserted } from '../src/domain/event-schemas.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';

interface PageFold {
  last: PageUpserted | null;
  /** The last file path given in the batch: a later write without one keeps it (as across batches). */
  filePath: string | null;
  lastAt: string;
  saves: number;
  deleted: boolean;
  /** The last remote write that kept hidden parts; null: an owner or import write cleared it; undefined: neither happened. */
  remoteWrite: { at: string; kept: string[] } | null | undefined;
}

/**
 * Folds a batch per page: the last saved content, how many versions were saved, deleted at the end
 * or not. The fold gives the same row whatever the batch boundaries, so a rebuild matches the live table.
 */
function foldBatch(events: readonly LoggedEvent[]): Map<string, PageFold> {
  const folds = new Map<string, PageFold>();
  for (const { event } of events) {
    if (event.type !== 'page.upserted' && event.type !== 'page.deleted') continue;
    const key = `${event.data.source_id}\u0000${event.data.slug}`;
    const fold = folds.get(key) ?? { last: null, filePath: null, lastAt: event.at, saves: 0, deleted: false, remoteWrite: undefined };
    if (event.type === 'page.upserted') {
      fold.last = event.data;
      fold.filePath = event.data.file_path ?? fold.filePath;
      fold.saves += 1;
      fold.deleted = false;
      fold.lastAt = event.at;
      if (event.data.origin !== 'remote') fold.remoteWrite = null;
      else if (event.data.kept_hidden && event.data.kept_hidden.length > 0) fold.remoteWrite = { at: event.at, kept: event.data.kept_hidden };
    } else if (!fold.deleted) {
      // A repeated delete changes nothing, exactly as when it arrives in a later batch.
      fold.deleted = true;
      fold.lastAt = event.at;
    }
    folds.set(key, fold);
  }
  return folds;
}

const UPSERT_COLUMNS = 12;

/**
 * `pages`: the current version of every page, soft-deleted rows kept; `version` counts saved
 * versions (the core revision token `r<N>`). A batch is folded per page and written with
 * multi-row statements. A new row takes `last_retrieved_at` from the retrievals already
 * projected, so the result does not depend on which projection ran first.
 */
/** The pages projection's consumer name (its checkpoint). */
export const PAGES_PROJECTION = 'projection.pages';

export const pagesProjection: Consumer = {
  name: PAGES_PROJECTION,
  topics: ['pages'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const folds = foldBatch(events);
    const upserts: unknown[][] = [];
    const deletes: { source_id: string; slug: string; at: string }[] = [];
    const remoteWrites: [string, string, string][] = [];
    const cleared: [string[], string[]] = [[], []];
    for (const [key, f] of folds) {
      if (f.last) {
        const d = f.last;
        upserts.push([d.source_id, d.slug, d.title, d.type, JSON.stringify(d.frontmatter), d.compiled_truth, d.timeline,
          d.content_hash, f.filePath, f.saves, f.deleted, f.lastAt]);
        if (f.remoteWrite === null) {
          cleared[0].push(d.source_id);
          cleared[1].push(d.slug);
        } else if (f.remoteWrite !== undefined) remoteWrites.push([d.source_id, d.slug, JSON.stringify(f.remoteWrite)]);
      } else {
        const [source_id, slug] = key.split('\u0000') as [string, string];
        deletes.push({ source_id, slug, at: f.lastAt });
      }
    }
    for (const chunk of chunkRowsForParams(upserts, UPSERT_COLUMNS)) {
      const values = valuesPlaceholders(chunk.length, UPSERT_COLUMNS);
      await tx.query(
        `INSERT INTO pages AS p (source_id, slug, title, type, frontmatter, compiled_truth, timeline, content_hash,
                                 file_path, version, deleted, updated_at, last_retrieved_at)
         SELECT v.source_id, v.slug, v.title, v.type, v.frontmatter::jsonb, v.compiled_truth, v.timeline, v.content_hash,
                v.file_path, v.saves::int, v.deleted::boolean, v.at::timestamptz,
                (SELECT max(r.retrieved_at) FROM page_retrievals r WHERE r.source_id = v.source_id AND r.slug = v.slug)
         FROM (VALUES ${values}) AS v(source_id, slug, title, type, frontmatter, compiled_truth, timeline, content_hash,
                                      file_path, saves, deleted, at)
         ON CONFLICT (source_id, slug) DO UPDATE SET
           title = EXCLUDED.title, type = EXCLUDED.type, frontmatter = EXCLUDED.frontmatter,
           compiled_truth = EXCLUDED.compiled_truth, timeline = EXCLUDED.timeline, content_hash = EXCLUDED.content_hash,
           file_path = COALESCE(EXCLUDED.file_path, p.file_path), version = p.version + EXCLUDED.version,
           deleted = EXCLUDED.deleted, updated_at = EXCLUDED.updated_at`,
        chunk.flat(),
      );
    }
    if (cleared[0].length > 0) {
      await tx.query(
        `UPDATE pages SET remote_write = NULL
         WHERE remote_write IS NOT NULL AND (source_id, slug) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        cleared,
      );
    }
    for (const [sourceId, slug, remoteWrite] of remoteWrites) {
      await tx.query(`UPDATE pages SET remote_write = $3::jsonb WHERE source_id = $1 AND slug = $2`, [sourceId, slug, remoteWrite]);
    }
    for (const d of deletes) {
      await tx.query(`UPDATE pages SET deleted = true, updated_at = $3 WHERE source_id = $1 AND slug = $2 AND NOT deleted`, [
        d.source_id, d.slug, d.at,
      ]);
    }
  },
};

/** The log position the pages table reflects (its checkpoint; 1 before any page event). */
export async function pagesPosition(db: Db): Promise<number> {
  const [cp] = await db.query<{ position: number }>('SELECT position FROM checkpoints WHERE consumer = $1', [pagesProjection.name]);
  return cp ? Number(cp.position) : 1;
}
