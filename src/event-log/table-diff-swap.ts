import type { Db } from '../db/db.js';
import { quoteIdent } from './search-path-db.js';

/** A table a projection owns, with the columns of its primary key. */
export interface OwnedTable {
  name: string;
  key: readonly string[];
}

export interface TableDiff {
  table: string;
  /** Live rows absent from (or different in) the rebuilt table. */
  removed: number;
  /** Rebuilt rows absent from (or different in) the live table. */
  added: number;
}

const count = async (tx: Db, sql: string): Promise<number> => Number((await tx.query<{ n: number }>(sql))[0]!.n);

/** Compares the live table with its rebuilt shadow, row by row over every column. */
export async function diffTable(tx: Db, table: OwnedTable, schema: string): Promise<TableDiff> {
  const shadow = `${quoteIdent(schema)}.${table.name}`;
  const removed = await count(tx, `SELECT count(*)::int AS n FROM (SELECT * FROM ${table.name} EXCEPT SELECT * FROM ${shadow}) d`);
  const added = await count(tx, `SELECT count(*)::int AS n FROM (SELECT * FROM ${shadow} EXCEPT SELECT * FROM ${table.name}) d`);
  return { table: table.name, removed, added };
}

/**
 * Makes the live table's content equal to the shadow's by writing only the rows that differ. The
 * live table keeps its identity (views, grants and indexes on it stay valid) and, on PostgreSQL,
 * readers see the old rows until the swap commits. When the rebuild is equal, nothing is written.
 */
export async function swapTableContent(tx: Db, table: OwnedTable, schema: string): Promise<TableDiff> {
  const shadow = `${quoteIdent(schema)}.${table.name}`;
  const keys = table.key.join(', ');
  const match = table.key.map((k) => `l.${k} = x.${k}`).join(' AND ');
  const removed = await count(
    tx,
    `WITH gone AS (
       DELETE FROM ${table.name} l
        USING (SELECT ${keys} FROM (SELECT * FROM ${table.name} EXCEPT SELECT * FROM ${shadow}) d) x
        WHERE ${match}
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
  );
  const added = await count(
    tx,
    `WITH put AS (
       INSERT INTO ${table.name} SELECT * FROM (SELECT * FROM ${shadow} EXCEPT SELECT * FROM ${table.name}) d
       RETURNING 1)
     SELECT count(*)::int AS n FROM put`,
  );
  return { table: table.name, removed, added };
}
