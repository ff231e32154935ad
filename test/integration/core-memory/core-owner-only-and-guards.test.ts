import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Brain } from '../../../src/brain/brain.js';
import { renderBrainWideBlock } from '../../../src/core-memory/core-block.js';
import { measureCore } from '../../../src/core-memory/core-budget.js';
import { readPendingCoreNotices } from '../../../projections/core-notices-queries.js';
import { findFact } from '../../../projections/facts-queries.js';
import { coreInit } from '../../../src/ops/core-init.js';
import { coreAdd, coreRemove } from '../../../src/ops/core-mark.js';
import { coreAck } from '../../../src/ops/core-review.js';
import { forget } from '../../../src/ops/forget.js';
import { importFolder } from '../../../src/ops/import-folder.js';
import { loadCoreRows } from '../../../projections/pages-queries.js';
import { findPage } from '../../../projections/pages-queries.js';
import { deletePage, putPage } from '../../../src/ops/page-ops.js';
import { remember, type RememberSingleResponse } from '../../../src/ops/remember.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();
const today = '2026-04-07';
const OWNER_ONLY = 'only the brain owner can change core membership or priority';

const eventCount = async (brain: Brain): Promise<number> => Number((await brain.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events'))[0]!.n);
const core = async (brain: Brain) => measureCore(await loadCoreRows(brain.db), today);

describe.each(drivers)('owner-only rules and guarded writes on $name', ({ open }) => {
  it('a remote `core remove` of a soft-deleted core page is core_mark_owner_only; nothing is written; the owner can', async () => {
    const b = await coreBrain(await open());
    try {
      await putCore(b.brain, 'notes/gone', 'Gone soon.', 'core_priority: 10');
      await deletePage(b.brain, owner, 'default', 'notes/gone');
      const before = await eventCount(b.brain);

      const e = await coreRemove(b.brain, remote, 'default', 'notes/gone').catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: 'core_mark_owner_only',
        message: `${OWNER_ONLY}. Ask the user to run: brainstream core remove --source default notes/gone`,
        details: { source_id: 'default', slug: 'notes/gone', command: 'brainstream core remove --source default notes/gone' },
      });
      expect(await eventCount(b.brain)).toBe(before);
      expect(await findPage(b.brain.db, 'default', 'notes/gone')).toMatchObject({ deleted: true, frontmatter: { always_load: true, core_priority: 10 } });

      // A remote re-creation that drops the mark is the same change, and refused the same way.
      await expect(putPage(b.brain, remote, 'notes/gone', md('title: Gone\nalways_load: false', 'Back.'))).rejects.toMatchObject({
        code: 'core_mark_owner_only',
        details: { command: 'brainstream core remove --source default notes/gone' },
      });
      expect(await eventCount(b.brain)).toBe(before);

      expect(await coreRemove(b.brain, owner, 'default', 'notes/gone')).toMatchObject({ status: 'removed' });
      expect(await findPage(b.brain.db, 'default', 'notes/gone')).toMatchObject({ deleted: true, frontmatter: {} });
      // Once the owner cleared the mark, a remote caller re-creates it as an ordinary page.
      expect(await putPage(b.brain, remote, 'notes/gone', md('title: Gone', 'Back.'))).toMatchObject({ status: 'created' });
      expect(await loadCoreRows(b.brain.db)).toEqual([]);
    } finally {
      b.cleanup();
    }
  });

  it('a remote re-creation of a soft-deleted core page keeps the owner’s mark: notified under notify, refused under refuse', async () => {
    const b = await coreBrain(await open());
    try {
      await putCore(b.brain, 'notes/gone', 'Old.'); // r1
      await deletePage(b.brain, owner, 'default', 'notes/gone');
      b.setConfig({ 'memory.core.remote_edit': 'refuse' });
      await expect(putPage(b.brain, remote, 'notes/gone', md('title: Gone', 'Injected.'))).rejects.toMatchObject({ code: 'core_remote_edit_refused' });
      expect(await findPage(b.brain.db, 'default', 'notes/gone')).toMatchObject({ deleted: true, compiled_truth: 'Old.' });

      b.setConfig({});
      expect(await putPage(b.brain, remote, 'notes/gone', md('title: Gone', 'Back, remotely.'))).toMatchObject({ status: 'created' }); // r2
      expect(await findPage(b.brain.db, 'default', 'notes/gone')).toMatchObject({ deleted: false, version: 2, frontmatter: { always_load: true } });
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'notes/gone', revision: 2 }]);
    } finally {
      b.cleanup();
    }
  });

  it('the suggested core add names --priority only when one was asked for, and a whole number the CLI accepts', async () => {
    const b = await coreBrain(await open());
    try {
      await putPage(b.brain, owner, 'notes/x', md('title: X\ncore_priority: 100', 'x'));
      await expect(coreAdd(b.brain, remote, 'default', 'notes/x')).rejects.toMatchObject({
        code: 'core_mark_owner_only',
        message: `${OWNER_ONLY}. Ask the user to run: brainstream core add --source default notes/x`,
      });
      await expect(coreAdd(b.brain, remote, 'default', 'notes/x', 100)).rejects.toMatchObject({ details: { command: 'brainstream core add --source default notes/x --priority 100' } });
      await putPage(b.brain, owner, 'notes/y', md('title: Y\ncore_priority: 30', 'y'));
      await expect(coreAdd(b.brain, remote, 'default', 'notes/y')).rejects.toMatchObject({ details: { command: 'brainstream core add --source default notes/y' } });

      await putCore(b.brain, 'prefs/habits', 'Short answers.', 'core_priority: 10');
      const before = await eventCount(b.brain);
      await expect(putPage(b.brain, remote, 'prefs/habits', md('title: prefs/habits\ncore_priority: 2.5', 'Short answers.'))).rejects.toMatchObject({
        code: 'core_mark_owner_only',
        message: `${OWNER_ONLY}. Ask the user to run: brainstream core add --source default prefs/habits --priority 2 (--priority takes a whole number within ±2147483647, so core_priority 2.5 becomes 2)`,
        details: { command: 'brainstream core add --source default prefs/habits --priority 2' },
      });
      expect(await eventCount(b.brain)).toBe(before);
      // The named command does what it says when the owner runs it.
      expect(await coreAdd(b.brain, owner, 'default', 'prefs/habits', 2)).toMatchObject({ status: 'added', priority: 2 });
    } finally {
      b.cleanup();
    }
  });

  it('a remote forget that strikes a row of a core page’s facts fence: a notice under notify; refused under refuse, nothing written', async () => {
    const b = await coreBrain(await open());
    try {
      await putCore(b.brain, 'prefs', 'Prefs.'); // r1
      const tea = (await remember(b.brain, remote, { fact: 'Likes tea', provenance: 'chat', entity: 'prefs' })) as RememberSingleResponse; // r2
      const coffee = (await remember(b.brain, remote, { fact: 'Likes coffee', provenance: 'chat', entity: 'prefs' })) as RememberSingleResponse; // r3
      await coreAck(b.brain, owner, 'default', 'prefs', 'r3');
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([]);

      expect(await forget(b.brain, remote, tea.id, 'changed my mind')).toMatchObject({ status: 'forgotten' }); // r4
      expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 4 }]);
      const struck = await findPage(b.brain.db, 'default', 'prefs');
      expect(struck!.compiled_truth).toContain('~~Likes tea~~');
      expect(renderBrainWideBlock(await loadCoreRows(b.brain.db), today).text).not.toContain('Likes tea');

      b.setConfig({ 'memory.core.remote_edit': 'refuse' });
      const before = await eventCount(b.brain);
      await expect(forget(b.brain, remote, coffee.id)).rejects.toMatchObject({
        code: 'core_remote_edit_refused',
        message:
          'core page prefs cannot be edited remotely (memory.core.remote_edit is refuse). Make the edit on the brain host, or ask the user to run: brainstream config set memory.core.remote_edit notify',
      });
      expect(await eventCount(b.brain)).toBe(before);
      expect(await findFact(b.brain.db, Number(coffee.id))).toMatchObject({ status: 'active' });
      expect((await findPage(b.brain.db, 'default', 'prefs'))!.version).toBe(4);
      // The owner is never subject to the policy.
      expect(await forget(b.brain, owner, coffee.id)).toMatchObject({ status: 'forgotten' });
    } finally {
      b.cleanup();
    }
  });

  it('core init is a guarded owner write: refused when core/profile would push core over budget, nothing written', async () => {
    const b = await coreBrain(await open(), { 'memory.core.max_chars': 500 });
    try {
      await putCore(b.brain, 'notes/big', 'b'.repeat(400));
      const before = await eventCount(b.brain);
      const e = await coreInit(b.brain, owner, 'default').catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'core_budget_exceeded', details: { reason: 'max_chars', max_chars: 500, current_chars: (await core(b.brain)).chars } });
      expect((e as Error).message).toMatch(/^core would be \d+ chars, \d+ over memory\.core\.max_chars=500; largest core pages you can see: notes\/big \(\d+\), core\/profile \(95\)\./);
      expect(await eventCount(b.brain)).toBe(before);
      expect(await findPage(b.brain.db, 'default', 'core/profile')).toBeNull();
      b.setConfig({ 'memory.core.max_chars': 4000 });
      expect(await coreInit(b.brain, owner, 'default')).toMatchObject({ status: 'created' });
    } finally {
      b.cleanup();
    }
  });

  it('core remove always passes on a brain over max_chars, even when core stays over', async () => {
    const b = await coreBrain(await open());
    try {
      for (const slug of ['a', 'b', 'c']) await putCore(b.brain, slug, slug.repeat(400));
      b.setConfig({ 'memory.core.max_chars': 500 });
      await expect(putCore(b.brain, 'd', 'd')).rejects.toMatchObject({ code: 'core_budget_exceeded' });
      const sizes: number[] = [(await core(b.brain)).chars];
      for (const slug of ['a', 'b']) {
        expect(await coreRemove(b.brain, owner, 'default', slug)).toMatchObject({ status: 'removed' });
        sizes.push((await core(b.brain)).chars);
      }
      expect(sizes[1]).toBeGreaterThan(500); // still over after the first removal: it passed anyway
      expect(sizes).toEqual([...sizes].sort((x, y) => y - x));
      expect(await coreRemove(b.brain, owner, 'default', 'c')).toMatchObject({ status: 'removed', usage: { used: 0 } });
    } finally {
      b.cleanup();
    }
  });

  it('core remove always passes on a brain over the 50-page cap (pushed there by import), while a 52nd page is refused', async () => {
    const b = await coreBrain(await open());
    try {
      const dir = join(b.home, 'vault');
      mkdirSync(join(dir, 'c'), { recursive: true });
      for (let i = 0; i < 52; i++) writeFileSync(join(dir, 'c', `p${String(i).padStart(2, '0')}.md`), md(`title: P${i}\nalways_load: true`, 'p'));
      expect((await importFolder(b.brain, dir, 'default')).added).toBe(52);
      expect((await core(b.brain)).count).toBe(52);
      expect(await coreRemove(b.brain, owner, 'default', 'c/p00')).toMatchObject({ status: 'removed', usage: { count: 51 } });
      await putPage(b.brain, owner, 'extra', md('title: Extra', 'e'));
      await expect(coreAdd(b.brain, owner, 'default', 'extra')).rejects.toMatchObject({ code: 'core_budget_exceeded', details: { reason: 'max_pages', page_count: 52 } });
      expect(await coreRemove(b.brain, owner, 'default', 'c/p01')).toMatchObject({ status: 'removed', usage: { count: 50 } });
    } finally {
      b.cleanup();
    }
  });
});
