import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { engineVersion, expectedManifest, TEMPLATE_ARCHIVE, TEMPLATE_MANIFEST, templateDir, templateMismatch } from '../../src/db/home-template.js';
import { loadMigrations } from '../../src/db/migrate.js';
import { openPgliteDb, wrapPglite } from '../../src/db/pglite-db.js';
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

/** The build's database template (every migration applied), when it matches the migrations here. */
function currentTemplate(): Buffer | null {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(templateDir(), TEMPLATE_MANIFEST), 'utf8'));
    if (templateMismatch(manifest, expectedManifest(loadMigrations(), engineVersion())) !== null) return null;
    return readFileSync(join(templateDir(), TEMPLATE_ARCHIVE));
  } catch {
    return null;
  }
}

/**
 * A new in-memory embedded database with every migration applied. Started from the build's
 * template, as a new home is, because creating the database cluster costs several seconds per
 * test; without a current template (migrations changed since the build) it is created fresh.
 */
export async function openMemoryDb(): Promise<Db> {
  const template = currentTemplate();
  if (template === null) return openPgliteDb();
  const pg = new PGlite({ loadDataDir: new Blob([template]) });
  await pg.waitReady;
  return wrapPglite(pg);
}

/**
 * `empty`: databases with no migration applied (the migration tests); otherwise PGlite starts
 * migrated from the template.
 */
export async function storageDrivers(options: { empty?: boolean } = {}): Promise<DriverCase[]> {
  const cases: DriverCase[] = [{ name: 'pglite', open: options.empty ? () => openPgliteDb() : openMemoryDb }];
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
