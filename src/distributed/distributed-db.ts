import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPostgresDb } from '../db/postgres-db.js';
import { BrainstreamError } from '../errors.js';
import { selfHealingDb } from './self-healing-db.js';

export interface DistributedDbOptions {
  /** Connections in the pool. */
  pool: number;
  /** Shown in pg_stat_activity (what an operator, or a fault test, looks for). */
  applicationName: string;
}

/** `url` with `application_name` set, unless the URL already names one. */
export function withApplicationName(url: string, name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BrainstreamError('invalid_database_url', 'the database URL is not a URL (postgres://user@host:port/database)');
  }
  if (!parsed.searchParams.has('application_name')) parsed.searchParams.set('application_name', name);
  return parsed.toString();
}

/** The distributed mode's PostgreSQL: projections, offsets, session state and outbox, migrated; it survives dropped connections. */
export async function openDistributedDb(url: string, options: DistributedDbOptions): Promise<Db> {
  const named = withApplicationName(url, options.applicationName);
  const db = selfHealingDb(() => openPostgresDb(named, { max: options.pool }));
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
}
