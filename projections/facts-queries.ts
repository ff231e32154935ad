import type { Db } from '../src/db/db.js';

/** A row of the fact store: the `facts` projection's read model, and the queries callers run on it. */
export interface StoredFact {
  id: number;
  source_id: string;
  entity: string | null;
  page_row: number | null;
  fact: string;
  kind: string;
  visibility: string;
  provenance: string;
  valid_from: string;
  valid_until: string | null;
  status: 'active' | 'forgotten' | 'superseded';
  created_at: string;
}

interface FactRowRaw extends Omit<StoredFact, 'id' | 'page_row' | 'created_at'> {
  id: number | string;
  page_row: number | null;
  created_at: Date | string;
}

const COLUMNS = 'id, source_id, entity, page_row, fact, kind, visibility, provenance, valid_from, valid_until, status, created_at';

const toFact = (r: FactRowRaw): StoredFact => ({
  ...r,
  id: Number(r.id),
  page_row: r.page_row === null ? null : Number(r.page_row),
  created_at: new Date(r.created_at).toISOString(),
});

export async function findFact(db: Db, id: number): Promise<StoredFact | null> {
  const [row] = await db.query<FactRowRaw>(`SELECT ${COLUMNS} FROM facts WHERE id = $1`, [id]);
  return row ? toFact(row) : null;
}

/** An active fact of the same source and entity whose normalised text is `normalized`. */
export async function findDuplicateFact(db: Db, sourceId: string, entity: string | null, normalized: string): Promise<StoredFact | null> {
  const [row] = await db.query<FactRowRaw>(
    `SELECT ${COLUMNS} FROM facts
      WHERE source_id = $1 AND entity IS NOT DISTINCT FROM $2 AND normalized = $3 AND status = 'active'
      ORDER BY id LIMIT 1`,
    [sourceId, entity, normalized],
  );
  return row ? toFact(row) : null;
}

/** Ids are brain-wide and never reused; call under the core write lock. */
export async function nextFactId(db: Db): Promise<number> {
  const [row] = await db.query<{ m: number | string | null }>('SELECT max(id) AS m FROM facts');
  return Number(row?.m ?? 0) + 1;
}

export interface FactFilter {
  /** Sources to list; null = all. */
  sources: readonly string[] | null;
  entity: string | null;
  worldOnly: boolean;
  includeWithdrawn: boolean;
}

/** `facts list`: newest first (by id, which follows creation order). */
export async function listFacts(db: Db, f: FactFilter): Promise<StoredFact[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.sources !== null) where.push(`source_id = ANY($${params.push(f.sources)}::text[])`);
  if (f.entity !== null) where.push(`entity = $${params.push(f.entity)}`);
  if (f.worldOnly) where.push(`visibility = 'world'`);
  if (!f.includeWithdrawn) where.push(`status = 'active'`);
  const sql = `SELECT ${COLUMNS} FROM facts ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC`;
  return (await db.query<FactRowRaw>(sql, params)).map(toFact);
}

/** A fact as the turn block's hot facts read it. */
export interface RecentFact {
  fact: string;
  entity: string | null;
  valid_until: string | null;
  created_at: Date | string;
}

/** The source's active `world` facts recorded after `since`, newest first. */
export async function recentWorldFacts(db: Db, sourceId: string, since: Date): Promise<RecentFact[]> {
  return db.query<RecentFact>(
    `SELECT fact, entity, valid_until, created_at FROM facts
      WHERE source_id = $1 AND status = 'active' AND visibility = 'world' AND created_at > $2
      ORDER BY created_at DESC, id DESC`,
    [sourceId, since.toISOString()],
  );
}
