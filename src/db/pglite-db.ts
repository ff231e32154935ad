import { PGlite } from '@electric-sql/pglite';
import type { Transaction } from '@electric-sql/pglite';
import { closeToOthers } from '../owner-only.js';
import type { Db } from './db.js';

type Queryable = PGlite | Transaction;

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;
  constructor(
    private readonly conn: Queryable,
    private readonly root: PGlite,
    private readonly inTransaction: boolean,
    private readonly dataDir: string | null = null,
  ) {}

  async query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const result = await this.conn.query<T>(sql, params as unknown[]);
    return result.rows;
  }

  async exec(sql: string): Promise<void> {
    await this.conn.exec(sql);
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.root.transaction((tx) => fn(new PgliteDb(tx, this.root, true)));
  }

  async close(): Promise<void> {
    if (this.inTransaction) return;
    await this.root.close();
    if (this.dataDir !== null) closeToOthers(this.dataDir);
  }
}

/** Opens (creating when absent) an embedded database in `dataDir`, or in memory when omitted. */
export async function openPgliteDb(dataDir?: string): Promise<Db> {
  const pg = dataDir ? new PGlite(dataDir) : new PGlite();
  await pg.waitReady;
  if (dataDir) closeToOthers(dataDir);
  return new PgliteDb(pg, pg, false, dataDir ?? null);
}

/** The Db of an already open PGlite (closing it closes the engine). */
export const wrapPglite = (pg: PGlite): Db => new PgliteDb(pg, pg, false);
