import type { Db } from '../../src/db/db.js';
import { makeEvent, pageKey, type Envelope } from '../../src/domain/events.js';
import type { Channel, MatchArm } from '../../src/domain/event-schemas.js';

/** Hand-built events of the feedback loop, with explicit event times. */
export const upsertPage = (slug: string, title: string, at: string, sourceId = 'default', filePath: string | null = null): Envelope =>
  makeEvent(
    'page.upserted',
    { source_id: sourceId, slug, title, type: slug.startsWith('people/') ? 'person' : 'company', frontmatter: {}, compiled_truth: `${title} body`, timeline: '', content_hash: `h-${slug}-${at}`, file_path: filePath, origin: 'owner' },
    { key: pageKey(sourceId, slug), at },
  );

export const deletePage = (slug: string, at: string, sourceId = 'default'): Envelope =>
  makeEvent('page.deleted', { source_id: sourceId, slug, origin: 'owner' }, { key: pageKey(sourceId, slug), at });

export const retrieval = (slug: string, session: string | null, at: string, sourceId = 'default'): Envelope =>
  makeEvent('page.retrieved', { source_id: sourceId, slug, session_id: session }, { key: session ?? pageKey(sourceId, slug), at });

export function volunteered(
  id: string,
  slug: string,
  arm: MatchArm,
  channel: Channel,
  session: string | null,
  at: string,
  sourceId = 'default',
  turn: number | null = session === null ? null : 1,
): Envelope {
  const confidence = { alias: 0.95, title: 0.85, 'title-surname': 0.77, 'cjk-title': 0.77, 'slug-suffix': 0.65 }[arm];
  return makeEvent(
    'page.volunteered',
    { source_id: sourceId, slug, confidence, match_arm: arm, rationale: `${arm} match`, channel, session_id: session, turn },
    { key: session ?? pageKey(sourceId, slug), at, id },
  );
}

/** Every row of a table as PostgreSQL prints it, in primary-key order: what "byte-identical" compares. */
export async function dumpTable(db: Db, table: string, orderBy: string): Promise<string[]> {
  const rows = await db.query<{ r: string }>(`SELECT t::text AS r FROM ${table} t ORDER BY ${orderBy}`);
  return rows.map((r) => r.r);
}
