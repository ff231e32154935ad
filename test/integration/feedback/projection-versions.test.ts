// A release that changes how a projection folds its events raises the projection's version; the
// brain rebuilds that projection from the log at its next open, exactly once, and leaves the
// others and any newer-built tables alone.
import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { openPgliteDb } from '../../../src/db/pglite-db.js';
import { rebuildChangedProjections } from '../../../projections/projection-versions.js';
import { PROJECTIONS, type Projection } from '../../../projections/registry.js';
import { upsertPage } from '../../support/feedback-log.js';

const at = (h: number): string => new Date(Date.UTC(2026, 0, 5, h)).toISOString();

async function versions(brain: Brain): Promise<Record<string, number>> {
  const rows = await brain.db.query<{ projection: string; version: number }>('SELECT projection, version FROM projection_versions');
  return Object.fromEntries(rows.map((r) => [r.projection, Number(r.version)]));
}

const titles = async (brain: Brain): Promise<string[]> =>
  (await brain.db.query<{ title: string }>('SELECT title FROM pages ORDER BY slug')).map((r) => r.title);

/** The registry with one projection's version raised. */
const raised = (name: string, by = 1): Projection[] => PROJECTIONS.map((p) => (p.name === name ? { ...p, version: p.version + by } : p));

async function brainWithPages(): Promise<Brain> {
  const brain = await openBrainOn(await openPgliteDb());
  await brain.commit([upsertPage('people/alice', 'Alice Example', at(8)), upsertPage('people/bob', 'Bob Sample', at(9))]);
  return brain;
}

describe('projection versions', () => {
  it('a new brain records the version of every projection, and rebuilds nothing', async () => {
    const brain = await brainWithPages();
    try {
      expect(await versions(brain)).toEqual(Object.fromEntries(PROJECTIONS.map((p) => [p.name, p.version])));
      expect(await rebuildChangedProjections(brain.db, brain.log, PROJECTIONS)).toEqual({ rebuilt: [], recorded: [] });
    } finally {
      await brain.close();
    }
  });

  it('a raised version rebuilds that projection from the log once, and records the new version', async () => {
    const brain = await brainWithPages();
    try {
      // Rows an older fold would have written differently.
      await brain.db.query(`UPDATE pages SET title = 'written by the old fold'`);
      const code = raised('pages');
      expect(await rebuildChangedProjections(brain.db, brain.log, code)).toEqual({ rebuilt: ['pages'], recorded: [] });
      expect(await titles(brain)).toEqual(['Alice Example', 'Bob Sample']);
      expect((await versions(brain)).pages).toBe(PROJECTIONS.find((p) => p.name === 'pages')!.version + 1);
      // Done once: the same code finds nothing to do.
      expect(await rebuildChangedProjections(brain.db, brain.log, code)).toEqual({ rebuilt: [], recorded: [] });
    } finally {
      await brain.close();
    }
  });

  it('tables built by a newer release are used as they are', async () => {
    const brain = await brainWithPages();
    try {
      await brain.db.query(`UPDATE projection_versions SET version = version + 5 WHERE projection = 'pages'`);
      await brain.db.query(`UPDATE pages SET title = 'newer fold' WHERE slug = 'people/bob'`);
      expect(await rebuildChangedProjections(brain.db, brain.log, PROJECTIONS)).toEqual({ rebuilt: [], recorded: [] });
      expect(await titles(brain)).toEqual(['Alice Example', 'newer fold']);
    } finally {
      await brain.close();
    }
  });

  it('opening a brain whose tables an older fold built rebuilds them before anything reads them', async () => {
    const db = await openPgliteDb();
    const first = await openBrainOn(db);
    await first.commit([upsertPage('people/alice', 'Alice Example', at(8))]);
    await db.query(`UPDATE pages SET title = 'old fold'`);
    await db.query(`UPDATE projection_versions SET version = version - 1 WHERE projection = 'pages'`);
    // The same database opened again, as the next command would.
    const again = await openBrainOn(db);
    try {
      expect(await titles(again)).toEqual(['Alice Example']);
      expect((await versions(again)).pages).toBe(PROJECTIONS.find((p) => p.name === 'pages')!.version);
    } finally {
      await again.close();
    }
  });
});
