import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import type { Db } from './db.js';
import { quoteIdent } from './pg-schema.js';

const migrationsDir = (): string => join(packageRoot(), 'migrations');

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(join(dir, f), 'utf8') }));
}

export interface MigrateOptions {
  /**
   * The schema the connection's search_path names (a distributed deployment's own): created when
   * missing, and everything, `schema_migrations` included, is created in it.
   */
  schema?: string;
}

/**
 * Applies every migration not yet recorded in schema_migrations, in version order and all in
 * one transaction: a failing migration leaves the schema as it was. An advisory lock, taken
 * before anything else, keeps two processes on one server from racing (even on the first run);
 * deployments in different schemas do not wait for each other.
 */
export async function migrate(db: Db, migrations = loadMigrations(), options: MigrateOptions = {}): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7243001, hashtext($1))', [options.schema ?? '']);
    if (options.schema !== undefined) await ensureSchema(tx, options.schema);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).map((r) => Number(r.version)),
    );
    const applied: number[] = [];
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations(version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** Creates the schema when missing (CREATE needs no privilege it would not use) and checks that the connection resolves names to it. */
async function ensureSchema(tx: Db, schema: string): Promise<void> {
  const [present] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = $1', [schema]);
  if (Number(present!.n) === 0) await tx.exec(`CREATE SCHEMA ${quoteIdent(schema)}`);
  const [current] = await tx.query<{ s: string | null }>('SELECT current_schema() AS s');
  if (current!.s !== schema) {
    throw new Error(`the connection resolves names to schema ${JSON.stringify(current!.s)}, not ${JSON.stringify(schema)} (its search_path must name it first)`);
  }
}
