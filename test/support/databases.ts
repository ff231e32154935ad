import { afterAll } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { openPgliteDb } from '../../src/db/pglite-db.js';
import { openPostgresDb } from '../../src/db/postgres-db.js';
import { postgresOrSkip } from './services.js';

/**
 * The storage drivers an integration test runs against: PGlite always, PostgreSQL when the
 * service is there (own database per test file; in CI a missing server fails the file).
 */
export interface DriverCase {
  name: 'pglite' | 'postgres';
  open(): Promise<Db>;
}

export async function storageDrivers(): Promise<DriverCase[]> {
  const cases: DriverCase[] = [{ name: 'pglite', open: () => openPgliteDb() }];
  const pg = await postgresOrSkip();
  if (pg) {
    const opened: Db[] = [];
    cases.push({
      name: 'postgres',
      open: async () => {
        // Each open gets an empty schema: drop what a previous test of this file created.
        const db = openPostgresDb(pg.url);
        await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
        opened.push(db);
        return db;
      },
    });
    afterAll(async () => {
      for (const db of opened) await db.close().catch(() => {});
      await pg.dropDatabase();
    });
  }
  return cases;
}
