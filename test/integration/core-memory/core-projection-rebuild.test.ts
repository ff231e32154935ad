import { describe, expect, it } from 'vitest';
import type { Brain } from '../../../src/brain/brain.js';
import { readPendingCoreNotices } from '../../../projections/core-notices-queries.js';
import { rebuildProjection } from '../../../src/event-log/rebuild-projection.js';
import { coreRemove } from '../../../src/ops/core-mark.js';
import { coreAck, coreDiff } from '../../../src/ops/core-review.js';
import { deletePage, putPage } from '../../../src/ops/page-ops.js';
import { forget } from '../../../src/ops/forget.js';
import { remember } from '../../../src/ops/remember.js';
import { findProjection, projectionNames } from '../../../projections/registry.js';
import { storageDrivers } from '../../support/databases.js';
import { dumpTable } from '../../support/feedback-log.js';
import { coreBrain, md, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();

const CORE_TABLES = {
  core_revisions: 'source_id, slug, version',
  core_page_heads: 'source_id, slug',
  core_remote_revisions: 'source_id, slug, version',
  core_revision_acks: 'source_id, slug',
} as const;

async function snapshot(brain: Brain): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, order] of Object.entries(CORE_TABLES)) out[table] = await dumpTable(brain.db, table, order);
  return out;
}

/** A history touching every branch: owner and remote edits, notices and acks, un-coring, deletes, other sources. */
async function coreHistory(brain: Brain): Promise<void> {
  await putCore(brain, 'prefs', 'line 1\nline 2'); // r1
  await putPage(brain, remote, 'prefs', md('title: prefs', 'line 1\nline 2 (remote)')); // r2, noticed
  await putPage(brain, remote, 'prefs', md('title: prefs', 'line 1\nline 2 (remote)\nline 3')); // r3, noticed
  await coreAck(brain, owner, 'default', 'prefs', 'r2');
  await putCore(brain, 'prefs', 'owner rewrite'); // r4: owner edit, notice r3 stays
  await remember(brain, remote, { fact: 'Likes tea', provenance: 'chat', entity: 'prefs' }); // r5, noticed
  await putPage(brain, owner, 'plain', md('title: plain', 'never core'));
  await putCore(brain, 'gone', 'soon deleted');
  await deletePage(brain, owner, 'default', 'gone');
  await coreRemove(brain, owner, 'default', 'gone');
  await putCore(brain, 'uncored', 'core for a while');
  await putPage(brain, owner, 'uncored', md('title: uncored', 'not core any more'));
  await putPage(brain, { ...owner, source: 'work' }, 'w', md('title: W\nalways_load: true', 'work core'));
  await putPage(brain, { ...remote, source: 'work', grant: ['work'] }, 'w', md('title: W', 'work core, edited remotely'));
  await coreAck(brain, owner, 'work', 'w', 'r2');
}

describe.each(drivers)('core projections are rebuildable (`brainstream rebuild`) on $name', ({ open }) => {
  it('rebuild knows core-revisions and core-notices, and what each owns', () => {
    expect(projectionNames()).toEqual(expect.arrayContaining(['core-revisions', 'core-notices']));
    expect(findProjection('core-revisions')!.tables.map((t) => t.name)).toEqual(['core_revisions', 'core_page_heads']);
    expect(findProjection('core-notices')!.tables.map((t) => t.name)).toEqual(['core_remote_revisions', 'core_revision_acks']);
  });

  it('a rebuild from sequence 0 reproduces the same rows, whatever the batch size', async () => {
    const b = await coreBrain(await open());
    try {
      await coreHistory(b.brain);
      const before = await snapshot(b.brain);
      expect(before.core_revisions.length).toBeGreaterThan(5);
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 5 }]);
      for (const name of ['core-revisions', 'core-notices']) {
        for (const batchSize of [1, 3, 5000]) {
          const check = await rebuildProjection(b.brain.db, b.brain.log, findProjection(name)!, { batchSize, check: true });
          expect(check.changed, `${name}, batch size ${batchSize}: ${JSON.stringify(check.diffs)}`).toBe(0);
        }
        expect(await rebuildProjection(b.brain.db, b.brain.log, findProjection(name)!)).toMatchObject({ changed: 0, swapped: true });
      }
      expect(await snapshot(b.brain)).toEqual(before);
    } finally {
      b.cleanup();
    }
  });

  it('repairs lost or damaged rows: pending notices and core diff come back as they were, and later writes go on', async () => {
    const b = await coreBrain(await open());
    try {
      await coreHistory(b.brain);
      const before = await snapshot(b.brain);
      const diff = await coreDiff(b.brain, owner, 'default', 'prefs');
      await b.brain.db.exec(`DELETE FROM core_remote_revisions; DELETE FROM core_revision_acks WHERE source_id = 'work'; DELETE FROM core_revisions WHERE slug = 'prefs' AND version = 4; UPDATE core_page_heads SET version = 99 WHERE slug = 'uncored';`);
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([]);

      const revisions = await rebuildProjection(b.brain.db, b.brain.log, findProjection('core-revisions')!);
      const notices = await rebuildProjection(b.brain.db, b.brain.log, findProjection('core-notices')!);
      expect(revisions.diffs).toEqual([
        { table: 'core_revisions', removed: 0, added: 1 },
        { table: 'core_page_heads', removed: 1, added: 1 },
      ]);
      expect(notices.changed).toBeGreaterThan(0);
      expect(await snapshot(b.brain)).toEqual(before);
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 5 }]);
      expect(await coreDiff(b.brain, owner, 'default', 'prefs')).toEqual(diff);

      // The live projections continue from the swapped position: the next version is r6.
      await putPage(b.brain, remote, 'prefs', md('title: prefs', 'after the rebuild'));
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 6 }]);
    } finally {
      b.cleanup();
    }
  });

  it('the fact store and the remember replays are rebuilt too: lost rows come back, replays still answer', async () => {
    const b = await coreBrain(await open());
    try {
      const first = await remember(b.brain, owner, { fact: 'Prefers mornings', provenance: 'chat', request_id: 'req-1' });
      await remember(b.brain, owner, { fact: 'Likes tea', provenance: 'chat', entity: 'prefs' });
      const gone = await remember(b.brain, owner, { fact: 'Has a cat', provenance: 'chat' });
      await forget(b.brain, owner, (gone as { id: string }).id, 'moved out');
      const before = { facts: await dumpTable(b.brain.db, 'facts', 'id'), requests: await dumpTable(b.brain.db, 'remember_requests', 'request_id') };
      expect(before.facts).toHaveLength(3);
      expect(before.requests).toHaveLength(1);

      expect(projectionNames()).toEqual(expect.arrayContaining(['facts', 'remember-requests']));
      for (const name of ['facts', 'remember-requests']) {
        const check = await rebuildProjection(b.brain.db, b.brain.log, findProjection(name)!, { batchSize: 1, check: true });
        expect(check.changed, `${name}: ${JSON.stringify(check.diffs)}`).toBe(0);
      }

      await b.brain.db.exec(`DELETE FROM facts; DELETE FROM remember_requests;`);
      const facts = await rebuildProjection(b.brain.db, b.brain.log, findProjection('facts')!);
      const requests = await rebuildProjection(b.brain.db, b.brain.log, findProjection('remember-requests')!);
      expect(facts.diffs).toEqual([{ table: 'facts', removed: 0, added: 3 }]);
      expect(requests.diffs).toEqual([{ table: 'remember_requests', removed: 0, added: 1 }]);
      expect({ facts: await dumpTable(b.brain.db, 'facts', 'id'), requests: await dumpTable(b.brain.db, 'remember_requests', 'request_id') }).toEqual(before);
      // The rebuilt replay answers the same request with the stored response.
      expect(await remember(b.brain, owner, { fact: 'Prefers mornings', provenance: 'chat', request_id: 'req-1' })).toEqual(first);
    } finally {
      b.cleanup();
    }
  });
});
