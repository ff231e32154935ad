import { describe, expect, it } from 'vitest';
import { readPendingCoreNotices } from '../../../projections/core-notices-queries.js';
import { coreAck, coreDiff } from '../../../src/ops/core-review.js';
import { coreNoticeLines } from '../../../src/core-memory/core-notices.js';
import { pendingNoticesFor } from '../../../src/ops/core-delivery.js';
import { findPage } from '../../../projections/pages-queries.js';
import { putPage } from '../../../src/ops/page-ops.js';
import { remember } from '../../../src/ops/remember.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();
const edit = (body: string) => md('title: Prefs', body);

describe.each(drivers)('remote edits to core pages on $name', ({ open }) => {
  it('notify (default): saved, a notice names page and revision until acked; ack clears rN and earlier; a later edit raises a new one', async () => {
    const b = await coreBrain(await open());
    await putCore(b.brain, 'prefs', 'line 1\nline 2\nline 3'); // r1
    await putPage(b.brain, remote, 'prefs', edit('line 1\nline 2 (remote)\nline 3')); // r2
    await putPage(b.brain, remote, 'prefs', edit('line 1\nline 2 (remote)\nline 3\nline 4')); // r3
    await putPage(b.brain, remote, 'prefs', edit('line 1\nline 2 (remote)\nline 3\nline 4')); // no change: no version, no notice
    expect((await findPage(b.brain.db, 'default', 'prefs'))!.version).toBe(3);
    expect(coreNoticeLines(await pendingNoticesFor(b.brain.db, owner))).toEqual([
      'Core page prefs was edited remotely (revision r3). Review: brainstream core diff --source default prefs — accept: brainstream core ack --source default prefs --revision r3',
    ]);
    expect((await coreDiff(b.brain, owner, 'default', 'prefs')).text).toBe(
      ['--- prefs@r1', '+++ prefs@r3', '@@ -1,3 +1,4 @@', ' line 1', '-line 2', '+line 2 (remote)', ' line 3', '+line 4'].join('\n'),
    );
    await putCore(b.brain, 'prefs', 'owner rewrite'); // r4: an owner edit does not clear the notice
    expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 3 }]);
    await expect(coreAck(b.brain, owner, 'default', 'prefs', 'r4')).rejects.toMatchObject({ code: 'revision_not_found' });
    await expect(coreAck(b.brain, owner, 'default', 'prefs', 'r1')).rejects.toMatchObject({ code: 'revision_not_found' });
    expect(await coreAck(b.brain, owner, 'default', 'prefs', 'r2')).toEqual({ source_id: 'default', slug: 'prefs', revision: 'r2', pending: 'r3' });
    // The base is now the last acknowledged version.
    expect((await coreDiff(b.brain, owner, 'default', 'prefs')).text.split('\n').slice(0, 2)).toEqual(['--- prefs@r2', '+++ prefs@r4']);
    await coreAck(b.brain, owner, 'default', 'prefs', 'r3');
    expect(coreNoticeLines(await pendingNoticesFor(b.brain.db, owner))).toEqual([]);
    expect(await coreDiff(b.brain, owner, 'default', 'prefs')).toEqual({ pending: false, text: 'no unacknowledged remote edits for prefs' });
    await putPage(b.brain, remote, 'prefs', edit('remote again')); // r5
    expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 5 }]);
    b.cleanup();
  });

  it('allow: saved, no notice; refuse: core_remote_edit_refused and nothing written; owner and non-core writes are exempt', async () => {
    const b = await coreBrain(await open(), { 'memory.core.remote_edit': 'allow' });
    await putCore(b.brain, 'prefs', 'v1');
    await putPage(b.brain, remote, 'plain', md('title: plain', 'p'));
    await putPage(b.brain, remote, 'prefs', edit('v2'));
    expect(await readPendingCoreNotices(b.brain.db)).toEqual([]);
    b.setConfig({ 'memory.core.remote_edit': 'refuse' });
    const e = await putPage(b.brain, remote, 'prefs', edit('v3')).catch((x: { code: string; message: string }) => x);
    expect(e).toMatchObject({
      code: 'core_remote_edit_refused',
      message:
        'core page prefs cannot be edited remotely (memory.core.remote_edit is refuse). Make the edit on the brain host, or ask the user to run: brainstream config set memory.core.remote_edit notify',
    });
    expect((await findPage(b.brain.db, 'default', 'prefs'))!.compiled_truth).toBe('v2');
    expect((await putPage(b.brain, remote, 'prefs', edit('v2'))).status).toBe('unchanged'); // a no-op is not an edit
    await putPage(b.brain, remote, 'plain', md('title: plain', 'p2')); // non-core
    await putCore(b.brain, 'prefs', 'owner v3'); // owner
    expect((await findPage(b.brain.db, 'default', 'prefs'))!.compiled_truth).toBe('owner v3');
    b.cleanup();
  });

  it('remember into a core page facts fence is a remote edit: a notice under notify, an item error under refuse', async () => {
    const b = await coreBrain(await open());
    await putCore(b.brain, 'prefs', 'Prefs.');
    await remember(b.brain, remote, { fact: 'Likes tea', provenance: 'chat', entity: 'prefs' });
    expect(await readPendingCoreNotices(b.brain.db)).toEqual([{ source_id: 'default', slug: 'prefs', revision: 2 }]);
    b.setConfig({ 'memory.core.remote_edit': 'refuse' });
    const r = await remember(b.brain, remote, { items: [{ fact: 'Likes coffee', provenance: 'chat', entity: 'prefs' }, { fact: 'Free fact', provenance: 'chat' }] });
    expect(r).toMatchObject({ partial: true, items: [{ index: 0, status: 'error', error: { code: 'core_remote_edit_refused' } }, { index: 1, status: 'inserted' }] });
    b.cleanup();
  });

  it('at most 5 notice lines, then "… and <k> more (brainstream core status)"; remote callers see only readable sources', async () => {
    const b = await coreBrain(await open());
    for (let i = 0; i < 7; i++) {
      await putCore(b.brain, `p${i}`, 'v1');
      await putPage(b.brain, remote, `p${i}`, md(`title: p${i}`, 'v2'));
    }
    const lines = coreNoticeLines(await pendingNoticesFor(b.brain.db, owner));
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe('… and 2 more (brainstream core status)');
    expect(coreNoticeLines(await pendingNoticesFor(b.brain.db, { grant: ['work'] }))).toEqual([]);
    b.cleanup();
  });
});
