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
    } finally {
      await db.close();
    }
  });
});
