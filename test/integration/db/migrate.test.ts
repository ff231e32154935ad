// The one migration runner, on both drivers: numbered files in order, each recorded once,
// re-runs apply nothing, a failing migration leaves the schema as it was, and concurrent
// runners on one PostgreSQL server apply each migration exactly once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { loadMigrations, migrate, type Migration } from '../../../src/db/migrate.js';
import type { Db } from '../../../src/db/db.js';
import { storageDrivers } from '../../support/databases.js';
import { postgresOrSkip } from '../../support/services.js';

// Empty databases: these tests apply the migrations themselves.
const drivers = await storageDrivers({ empty: true });

const recorded = async (db: Db): Promise<{ version: number; name: string }[]> =>
  (await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version'))
    .map((r) => ({ version: Number(r.version), name: r.name }));

const tableExists = async (db: Db, name: string): Promise<boolean> =>
  (await db.query<{ n: string }>(`SELECT to_regclass($1)::text AS n`, [name]))[0].n !== null;

describe('loadMigrations', () => {
  it('reads only NNN_name.sql files, in version order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bs-migrations-'));
    writeFileSync(join(dir, '010_second.sql'), 'SELECT 2;');
    writeFileSync(join(dir, '002_first.sql'), 'SELECT 1;');
    writeFileSync(join(dir, 'README.md'), 'not a migration');
    writeFileSync(join(dir, '3_short.sql'), 'ignored: no three-digit version');
    expect(loadMigrations(dir).map((m) => [m.version, m.name])).toEqual([[2, 'first'], [10, 'second']]);
  });

  it('the shipped migrations have unique, increasing versions', () => {
    const versions = loadMigrations().map((m) => m.version);
    expect(versions.length).toBeGreaterThan(5);
    expect([...new Set(versions)].sort((a, b) => a - b)).toEqual(versions);
  });
});

describe.each(drivers)('migrate on $name', (driver) => {
  it('applies every shipped migration once and records it; a re-run applies nothing', async () => {
    const db = await driver.open();
    try {
      const all = loadMigrations();
      expect(await migrate(db)).toEqual(all.map((m) => m.version));
      expect(await recorded(db)).toEqual(all.map((m) => ({ version: m.version, name: m.name })));
      expect(await tableExists(db, 'events')).toBe(true);
      expect(await migrate(db)).toEqual([]);
      expect(await recorded(db)).toHaveLength(all.length);
    } finally {
      await db.close();
    }
  });

  it('applies only the new migrations of a later release', async () => {
    const db = await driver.open();
    try {
      const first: Migration[] = [{ version: 1, name: 'a', sql: 'CREATE TABLE mig_a (x int);' }];
      const later: Migration[] = [...first, { version: 2, name: 'b', sql: 'CREATE TABLE mig_b (x int);' }];
      expect(await migrate(db, first)).toEqual([1]);
      expect(await migrate(db, later)).toEqual([2]);
      expect(await tableExists(db, 'mig_b')).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('a failing migration leaves the schema and the record as they were', async () => {
    const db = await driver.open();
    try {
      await migrate(db, [{ version: 1, name: 'a', sql: 'CREATE TABLE mig_a (x int);' }]);
      const broken: Migration[] = [
        { version: 1, name: 'a', sql: 'CREATE TABLE mig_a (x int);' },
        { version: 2, name: 'b', sql: 'CREATE TABLE mig_b (x int);' },
        { version: 3, name: 'c', sql: 'CREATE TABLE mig_c (x no_such_type);' },
      ];
      await expect(migrate(db, broken)).rejects.toThrow(/no_such_type/);
      expect(await recorded(db)).toEqual([{ version: 1, name: 'a' }]);
      expect(await tableExists(db, 'mig_b')).toBe(false);
    } finally {
      await db.close();
    }
  });
});

const pg = await postgresOrSkip();

describe.skipIf(!pg)('migrate: concurrent runners on one PostgreSQL database', () => {
  afterAll(() => pg?.dropDatabase());

  it('apply each migration exactly once, with no error, even on a fresh database', async () => {
    // Separate pools are separate sessions, as separate processes would have.
    const runners = [0, 1, 2, 3].map(() => openPostgresDb(pg!.url));
    try {
      const results = await Promise.all(runners.map((db) => migrate(db)));
      const all = loadMigrations().map((m) => m.version);
      expect(results.flat().sort((a, b) => a - b)).toEqual(all);
      expect(results.filter((r) => r.length > 0)).toHaveLength(1);
      expect(await recorded(runners[0])).toHaveLength(all.length);
    } finally {
      for (const db of runners) await db.close();
    }
  });
});
