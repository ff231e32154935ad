import type { Db } from '../db/db.js';
import { migrate } from '../db/migrate.js';
import { openPostgresDb } from '../db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../db/pg-schema.js';
import { asDatabaseUnavailable } from '../db/database-unavailable.js';
import { BrainstreamError } from '../errors.js';
import { selfHealingDb } from './self-healing-db.js';

export interface DistributedDbOptions {
  /** Connections in the pool. */
  pool: number;
  /** Shown in pg_stat_activity (what an operator, or a fault test, looks for). */
  applicationName: string;
  /** The deployment's own schema: every table, view and function lives there (default `brainstream`). */
  schema?: string;
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

/**
 * The distributed mode's PostgreSQL: projections, offsets, session state and outbox, in the
 * deployment's own schema, migrated; it survives dropped connections. A server that does not
 * answer is a `database_unavailable` error within the connect timeout.
 */
export async function openDistributedDb(url: string, options: DistributedDbOptions): Promise<Db> {
  const schema = options.schema ?? DEFAULT_PG_SCHEMA;
  const named = withApplicationName(url, options.applicationName);
  const db = selfHealingDb(() => openPostgresDb(named, { max: options.pool, schema }));
  try {
    await migrate(db, undefined, { schema });
  } catch (err) {
    await db.close().catch(() => {});
    throw asDatabaseUnavailable(err, named);
  }
  return db;
}
