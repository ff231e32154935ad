import type { Db } from '../db/db.js';

/** A row of the fact store (`facts` projection). */
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

/** A fact id as given (`12`, `#12`), or null when it cannot be one. */
export function parseFactId(raw: string | number): number | null {
  const text = String(raw).trim().replace(/^#/, '');
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : null;
}

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
