// The template `npm run build` ships: a new home opened from it is a fully migrated database.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedFromTemplate, templateDir, TEMPLATE_MANIFEST } from '../../../src/db/home-template.js';
import { loadMigrations, migrate } from '../../../src/db/migrate.js';
import { openPgliteDb } from '../../../src/db/pglite-db.js';

describe('the built home template', () => {
  it('exists (made by npm run build) and opens as a database holding every migration', async () => {
    expect(existsSync(join(templateDir(), TEMPLATE_MANIFEST)), 'run `npm run build` first: it makes the home template').toBe(true);
    const dataDir = join(mkdtempSync(join(tmpdir(), 'bs-template-open-')), 'db');
    expect(await seedFromTemplate(dataDir)).toBe(true);
    const db = await openPgliteDb(dataDir);
    try {
      const recorded = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(recorded.map((r) => Number(r.version))).toEqual(loadMigrations().map((m) => m.version));
      expect(await migrate(db)).toEqual([]);
      // The dump holds the brain's database alone; the maps left out are made again on use.
      expect(await db.query('SELECT datname FROM pg_database')).toEqual([{ datname: 'postgres' }]);
      await db.exec('CREATE TABLE scratch (n int); INSERT INTO scratch SELECT generate_series(1, 20000); DELETE FROM scratch WHERE n % 2 = 0');
      await db.exec('VACUUM scratch');
      await db.exec('INSERT INTO scratch SELECT generate_series(1, 1000)');
      expect(await db.query('SELECT count(*)::int AS n FROM scratch')).toEqual([{ n: 11000 }]);
    } finally {
      await db.close();
    }
  });
});
