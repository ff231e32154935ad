/**
 * The storage port. Both drivers speak PostgreSQL SQL with `$n` placeholders, so every
 * migration, projection and query is written once.
 */
export interface Db {
  readonly kind: 'pglite' | 'postgres';
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs one or more statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction; nested calls reuse the outer transaction. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Builds `($1,$2),($3,$4)…` for a multi-row insert of `rows` rows with `cols` columns. */
export function valuesPlaceholders(rows: number, cols: number, offset = 0): string {
  const groups: string[] = [];
  let n = offset;
  for (let r = 0; r < rows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < cols; c++) cells.push(`$${++n}`);
    groups.push(`(${cells.join(',')})`);
  }
  return groups.join(',');
}

/** PostgreSQL allows 65,535 parameters per statement; stay well below it. */
export function chunkRowsForParams<T>(rows: readonly T[], cols: number, maxParams = 30_000): T[][] {
  const size = Math.max(1, Math.floor(maxParams / Math.max(1, cols)));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/** Inserts `rows` (arrays in `columns` order) in as few statements as the parameter limit allows. */
export async function insertRows(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  suffix = '',
): Promise<void> {
  for (const chunk of chunkRowsForParams(rows, columns.length)) {
    const sql = `INSERT INTO ${table} (${columns.join(',')}) VALUES ${valuesPlaceholders(chunk.length, columns.length)} ${suffix}`;
    await db.query(sql, chunk.flat());
  }
}

/**
 * Takes a transaction-scoped advisory lock on `key`, held until the transaction ends: writers of
 * one kind across processes sharing a PostgreSQL database queue here (PGlite has one writer anyway).
 */
export async function lockUntilCommit(tx: Db, key: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

/** Makes the rest of the transaction read one snapshot (first statement of the transaction only). */
export async function readOneSnapshot(tx: Db): Promise<void> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
}
