import { insertRows, type Db } from '../src/db/db.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';

interface Head {
  source_id: string;
  slug: string;
  version: number;
  core: boolean;
  /** Log position of the last event folded in (0 = none). */
  position: number;
}

const keyOf = (sourceId: string, slug: string): string => `${sourceId}\u0000${slug}`;

/** The heads of the pages a batch touches, read in one statement. */
async function loadHeads(tx: Db, keys: readonly { source_id: string; slug: string }[]): Promise<Map<string, Head>> {
  const rows = await tx.query<Head>(
    `SELECT h.source_id, h.slug, h.version, h.core, h.position
       FROM core_page_heads h
       JOIN unnest($1::text[], $2::text[]) AS k(source_id, slug) ON k.source_id = h.source_id AND k.slug = h.slug`,
    [keys.map((k) => k.source_id), keys.map((k) => k.slug)],
  );
  return new Map(rows.map((r) => [keyOf(r.source_id, r.slug), { ...r, version: Number(r.version), position: Number(r.position) }]));
}

const REVISION_COLUMNS = ['source_id', 'slug', 'version', 'title', 'frontmatter', 'compiled_truth', 'origin', 'saved_at'] as const;

/**
 * `core_revisions`: every saved version of a page that is core after the write (and the one
 * that stopped being core), numbered like `pages.version`, so `core diff` can compare any two
 * revisions. Compiled truth is kept rather than rendered core text, so a diff renders both
 * sides with the same date (fact expiry). Idempotent: each head remembers the log position it
 * has folded in, so a re-delivered event counts no version twice; rows are keyed by version.
 */
export const coreRevisionsProjection: Consumer = {
  name: 'projection.core_revisions',
  topics: ['pages'],
  async apply(tx: Db, events: readonly LoggedEvent[]): Promise<void> {
    const pageEvents = events.filter((e) => e.event.type === 'page.upserted' || e.event.type === 'page.deleted');
    if (pageEvents.length === 0) return;
    const keys = new Map<string, { source_id: string; slug: string }>();
    for (const { event } of pageEvents) {
      const d = event.data as { source_id: string; slug: string };
      keys.set(keyOf(d.source_id, d.slug), { source_id: d.source_id, slug: d.slug });
    }
    const heads = await loadHeads(tx, [...keys.values()]);
    const revisions: unknown[][] = [];
    for (const { event, position } of pageEvents) {
      const { source_id: sourceId, slug } = event.data as { source_id: string; slug: string };
      const key = keyOf(sourceId, slug);
      const head = heads.get(key) ?? { source_id: sourceId, slug, version: 0, core: false, position: 0 };
      if (position <= head.position) continue;
      if (event.type === 'page.upserted') {
        const d = event.data;
        const core = d.frontmatter.always_load === true;
        const version = head.version + 1;
        if (core || head.core) {
          revisions.push([d.source_id, d.slug, version, d.title, JSON.stringify(d.frontmatter), d.compiled_truth, d.origin, event.at]);
        }
        heads.set(key, { ...head, version, core, position });
      } else {
        heads.set(key, { ...head, core: false, position });
      }
    }
    if (revisions.length > 0) await insertRows(tx, 'core_revisions', REVISION_COLUMNS, revisions, 'ON CONFLICT DO NOTHING');
    const touched = [...keys.keys()].map((k) => heads.get(k)).filter((h): h is Head => h !== undefined);
    await insertRows(
      tx,
      'core_page_heads',
      ['source_id', 'slug', 'version', 'core', 'position'],
      touched.map((h) => [h.source_id, h.slug, h.version, h.core, h.position]),
      'ON CONFLICT (source_id, slug) DO UPDATE SET version = EXCLUDED.version, core = EXCLUDED.core, position = EXCLUDED.position',
    );
  },
};
