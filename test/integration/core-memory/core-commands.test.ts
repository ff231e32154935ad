import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreInit, PROFILE_BODY } from '../../../src/ops/core-init.js';
import { coreAdd, coreRemove } from '../../../src/ops/core-mark.js';
import { applySuggestions, coreSuggestions } from '../../../src/ops/core-suggest.js';
import { coreList, coreShow, coreStatus } from '../../../src/ops/core-views.js';
import { importFolder } from '../../../src/ops/import-folder.js';
import { loadCoreRows } from '../../../projections/pages-queries.js';
import { findPage } from '../../../projections/pages-queries.js';
import { deletePage, getPage, putPage } from '../../../src/ops/page-ops.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();

describe.each(drivers)('core commands on $name', ({ open }) => {
  it('core add / remove: guarded marks, priority kept unless given, unchanged when nothing changes, remove works on deleted rows', async () => {
    const b = await coreBrain(await open(), { 'memory.core.max_chars': 500 });
    await putPage(b.brain, owner, 'notes/x', md('title: X\ncore_priority: 30', 'Some text.'));
    const added = await coreAdd(b.brain, owner, 'default', 'notes/x');
    expect(added).toMatchObject({ status: 'added', priority: 30, chars: '## X (notes/x)\n\nSome text.'.length, withheld: null, usage: { max: 500, count: 1 } });
    expect((await coreAdd(b.brain, owner, 'default', 'notes/x')).status).toBe('unchanged');
    expect((await coreAdd(b.brain, owner, 'default', 'notes/x', 5)).priority).toBe(5);
    await putPage(b.brain, owner, 'big', md('title: Big', 'b'.repeat(600)));
    await expect(coreAdd(b.brain, owner, 'default', 'big')).rejects.toMatchObject({ code: 'core_budget_exceeded' });
    await expect(coreAdd(b.brain, owner, 'default', 'missing')).rejects.toMatchObject({ code: 'page_not_found' });
    await putPage(b.brain, owner, 'secret', md('title: S\nvisibility: private', 's'));
    expect((await coreAdd(b.brain, owner, 'default', 'secret')).withheld).toBe('private');
    // Remote callers: core_mark_owner_only naming the command, unless nothing would change.
    await expect(coreAdd(b.brain, remote, 'default', 'big')).rejects.toMatchObject({ code: 'core_mark_owner_only', details: { command: 'brainstream core add --source default big' } });
    await expect(coreRemove(b.brain, remote, 'default', 'notes/x')).rejects.toMatchObject({ code: 'core_mark_owner_only', details: { command: 'brainstream core remove --source default notes/x' } });
    expect((await coreRemove(b.brain, owner, 'default', 'notes/x')).status).toBe('removed');
    expect((await findPage(b.brain.db, 'default', 'notes/x'))!.frontmatter).toEqual({});
    expect((await coreRemove(b.brain, owner, 'default', 'notes/x')).status).toBe('unchanged');
    await deletePage(b.brain, owner, 'default', 'secret');
    expect((await coreRemove(b.brain, owner, 'default', 'secret')).status).toBe('removed');
    const row = await findPage(b.brain.db, 'default', 'secret');
    expect(row).toMatchObject({ deleted: true, frontmatter: { visibility: 'private' } });
    await expect(coreAdd(b.brain, owner, 'default', 'secret')).rejects.toMatchObject({ code: 'page_not_found' });
    b.cleanup();
  });

  it('core add / remove write through to the imported file, so a later import does not undo them', async () => {
    const b = await coreBrain(await open());
    const dir = join(b.home, 'vault');
    mkdirSync(join(dir, 'prefs'), { recursive: true });
    const file = join(dir, 'prefs', 'habits.md');
    writeFileSync(file, '---\r\ntitle: Habits # kept\r\ntags: [a, b]\r\n---\r\nShort answers.\r\n');
    await importFolder(b.brain, dir, 'default');
    await coreAdd(b.brain, owner, 'default', 'prefs/habits', 20);
    expect(readFileSync(file, 'utf8')).toBe('---\r\ntitle: Habits # kept\r\ntags: [a, b]\r\nalways_load: true\r\ncore_priority: 20\r\n---\r\nShort answers.\r\n');
    expect((await importFolder(b.brain, dir, 'default')).unchanged).toBe(1);
    writeFileSync(file, readFileSync(file, 'utf8').replace('Short answers.', 'Short answers, always.'));
    await importFolder(b.brain, dir, 'default'); // the owner's edit keeps the page core
    expect(await findPage(b.brain.db, 'default', 'prefs/habits')).toMatchObject({ compiled_truth: 'Short answers, always.', frontmatter: { always_load: true, core_priority: 20 } });
    await coreRemove(b.brain, owner, 'default', 'prefs/habits');
    expect(readFileSync(file, 'utf8')).toBe('---\r\ntitle: Habits # kept\r\ntags: [a, b]\r\n---\r\nShort answers, always.\r\n');
    await importFolder(b.brain, dir, 'default');
    expect(await loadCoreRows(b.brain.db)).toEqual([]);
    b.cleanup();
  });

  it('core init creates core/profile once; an existing non-core page is page_exists naming core add', async () => {
    const b = await coreBrain(await open());
    const r = await coreInit(b.brain, owner, 'default');
    expect(r.status).toBe('created');
    expect(await findPage(b.brain.db, 'default', 'core/profile')).toMatchObject({
      title: 'Profile',
      type: 'profile',
      frontmatter: { always_load: true, core_priority: 10 },
      compiled_truth: PROFILE_BODY.trim(),
    });
    expect((await coreInit(b.brain, owner, 'default')).status).toBe('already_initialised');
    await putPage(b.brain, { ...owner, source: 'work' }, 'core/profile', md('title: P', 'p'));
    await expect(coreInit(b.brain, { ...owner, source: 'work' }, 'work')).rejects.toMatchObject({
      code: 'page_exists',
      message: 'work:core/profile already exists and is not core; to make it core run: brainstream core add --source work core/profile',
    });
    b.cleanup();
  });

  it('core suggest: scored candidates that fit, by score then last read; --apply stops at the first refusal', async () => {
    const b = await coreBrain(await open(), { 'memory.core.max_chars': 500 });
    await putPage(b.brain, owner, 'me', md('title: Me', 'About me.'));
    await putPage(b.brain, owner, 'prefs/editor', md('title: Editor', 'Vim.'));
    await putPage(b.brain, owner, 'notes/style', md('title: Style\ntags: [preferences]', 'Terse.'));
    await putPage(b.brain, owner, 'projects/live', md('title: Live\ntype: project\nstatus: active', 'Ongoing.'));
    await putPage(b.brain, owner, 'projects/old', md('title: Old\ntype: project\nstatus: done', 'Done.'));
    await putPage(b.brain, owner, 'prefs/secret', md('title: S\nvisibility: private', 'x'));
    await putPage(b.brain, owner, 'prefs/huge', md('title: H', 'h'.repeat(600)));
    await getPage(b.brain, owner, 'default', 'notes/style', 's1'); // read recently: ranks before prefs/editor
    const s = await coreSuggestions(b.brain, owner);
    expect(s.map((x) => `${x.score} ${x.slug}`)).toEqual(['3 me', '2 notes/style', '2 prefs/editor', '1 projects/live']);
    expect(s[0].chars).toBe('## Me (me)\n\nAbout me.'.length);
    expect(await loadCoreRows(b.brain.db)).toEqual([]); // read-only
    b.setConfig({ 'memory.core.max_chars': 500 });
    await putPage(b.brain, owner, 'me', md('title: Me', 'm'.repeat(300)));
    const fresh = await coreSuggestions(b.brain, owner);
    await putCore(b.brain, 'filler', 'f'.repeat(160)); // me (+314) would now land on 509
    const applied = await applySuggestions(b.brain, owner, fresh);
    expect(applied.applied.map((a) => a.slug)).toEqual([]);
    expect(applied.refused).toMatchObject({ suggestion: { slug: 'me' }, error: { code: 'core_budget_exceeded' } });
    b.cleanup();
  });

  it('core list / status / show: brain-wide order, private pages only for the owner, effective settings', async () => {
    const b = await coreBrain(await open(), { 'memory.core.max_chars': 9000, 'memory.core.remote_edit': 'bogus' });
    await putCore(b.brain, 'b', 'B text', 'core_priority: 5');
    await putCore(b.brain, 'a', 'A', 'core_priority: 5');
    await putCore(b.brain, 'p', 'P', 'visibility: private');
    await putPage(b.brain, { ...owner, source: 'work' }, 'w', md('title: w\nalways_load: true', 'W'));
    const list = await coreList(b.brain, owner);
    expect(list.lines).toEqual([
      '5  default:a  11 chars',
      '5  default:b  16 chars',
      '100  default:p  11 chars (private — not rendered)',
      '100  work:w  16 chars',
      `total ${list.json.used_chars}/6000 chars, 4/50 pages`,
    ]);
    expect((await coreList(b.brain, remote)).json.pages.map((p) => p.slug)).toEqual(['a', 'b']);
    const status = await coreStatus(b.brain, owner);
    expect(status).toMatchObject({ enabled: false, max_chars: 6000, remote_edit: 'notify', page_count: 4, max_pages: 50, over_budget: false, pending_notices: [] });
    // The owner sees its private core page too, marked as not rendered, as in `core list`; a remote caller never does.
    expect(status.pages.map((p) => `${p.source_id}:${p.slug}`)).toEqual(['default:b', 'work:w', 'default:a', 'default:p']);
    expect(status.pages.find((p) => p.slug === 'p')).toMatchObject({ renders: false });
    expect((await coreStatus(b.brain, remote)).pages.map((p) => p.slug)).not.toContain('p');
    expect(status.revision).toMatch(/^[0-9a-f]{16}$/);
    const show = await coreShow(b.brain, owner);
    expect(show).toEqual({ enabled: false, text: '# Core memory\n\n## a (a)\n\nA\n\n## b (b)\n\nB text' });
    b.cleanup();
  });
});
