import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { remoteCaller } from '../../../src/caller.js';
import { renderBrainWideBlock } from '../../../src/core-memory/core-block.js';
import { coreDoctorCheck } from '../../../src/core-memory/core-doctor.js';
import { CoreBudgetExceededError } from '../../../src/core-memory/errors.js';
import { importFolder } from '../../../src/ops/import-folder.js';
import { loadCoreRows } from '../../../projections/pages-queries.js';
import { findPage } from '../../../projections/pages-queries.js';
import { deletePage, putPage } from '../../../src/ops/page-ops.js';
import { sessionCoreBlock } from '../../../src/ops/core-delivery.js';
import { storageDrivers } from '../../support/databases.js';
import { coreBrain, md, owner, putCore, remote } from './core-brain.js';

const drivers = await storageDrivers();
const today = '2026-04-07';

describe.each(drivers)('core-memory write path on $name', ({ open }) => {
  const fresh = async (config: Record<string, unknown> = {}) => coreBrain(await open(), config);
  const used = async (b: { brain: { db: never } } | any) => renderBrainWideBlock(await loadCoreRows(b.brain.db), today).chars;
  const events = async (b: any): Promise<number> => Number((await b.brain.db.query('SELECT count(*) AS n FROM events'))[0].n);

  it('only the boolean true makes a page core: "true", yes, 1, false, null are not (and are never budget-checked)', async () => {
    const b = await fresh({ 'memory.core.max_chars': 500 });
    const huge = 'z'.repeat(2000);
    // Each 2000-character page is far over the 500-character budget: it is written only because it is not core.
    const notCore: [string, unknown][] = [['"true"', 'true'], ['yes', 'yes'], ['1', 1], ['false', false], ['null', null]];
    for (const [i, [yaml, stored]] of notCore.entries()) {
      expect(await putPage(b.brain, owner, `p/${i}`, md(`always_load: ${yaml}`, huge)), `always_load: ${yaml}`).toMatchObject({ status: 'created' });
      const page = await findPage(b.brain.db, 'default', `p/${i}`);
      expect(page, `always_load: ${yaml}`).toMatchObject({ deleted: false, compiled_truth: huge });
      expect(page!.frontmatter.always_load, `always_load: ${yaml}`).toStrictEqual(stored);
    }
    expect(await loadCoreRows(b.brain.db)).toEqual([]);
    expect(await used(b)).toBe(0);
    // YAML 1.2 core schema: `True` is the boolean, so that page is core, and 2000 chars are over budget.
    await expect(putPage(b.brain, owner, 'p/5', md('always_load: True', huge))).rejects.toMatchObject({ code: 'core_budget_exceeded' });
    expect(await findPage(b.brain.db, 'default', 'p/5')).toBeNull();
    b.cleanup();
  });

  it('core_priority: lower first, -5 and 1e9 used as numbers, "abc" sorts as 100 and doctor names the page', async () => {
    const b = await fresh();
    await putCore(b.brain, 'a', 'A', 'core_priority: abc');
    await putCore(b.brain, 'b', 'B', 'core_priority: 1e9');
    await putCore(b.brain, 'c', 'C', 'core_priority: -5');
    await putCore(b.brain, 'd', 'D');
    const order = renderBrainWideBlock(await loadCoreRows(b.brain.db), today).sections.map((s) => `${s.slug}:${s.priority}`);
    expect(order).toEqual(['c:-5', 'a:100', 'd:100', 'b:1000000000']);
    const check = coreDoctorCheck({ config: {}, pages: await loadCoreRows(b.brain.db), compiledFiles: [], writers: [], today });
    expect(check.details.findings).toEqual([expect.objectContaining({ kind: 'out_of_range_setting', source_id: 'default', slug: 'a' })]);
    b.cleanup();
  });

  it('core-ness belongs to (source, slug); sessions see default first, then their own source, never others', async () => {
    const b = await fresh();
    await putPage(b.brain, owner, 'notes/x', md('title: X\nalways_load: true\ncore_priority: 50', 'default x'));
    await putPage(b.brain, { ...owner, source: 'work' }, 'notes/x', md('title: X', 'work x, not core'));
    await putPage(b.brain, { ...owner, source: 'work' }, 'w', md('title: W\nalways_load: true\ncore_priority: 1', 'work core'));
    await putPage(b.brain, { ...owner, source: 'other' }, 'o', md('title: O\nalways_load: true', 'other core'));
    const forWork = await sessionCoreBlock(b.brain.db, { source: 'work', grant: null });
    expect(forWork.sections.map((s) => `${s.source_id}:${s.slug}`)).toEqual(['default:notes/x', 'work:w']);
    const remoteWork = await sessionCoreBlock(b.brain.db, remoteCaller('work'));
    expect(remoteWork.text).toBe('# Core memory\n\n## W (work:w)\n\nwork core');
    b.cleanup();
  });

  it('private and quarantined core pages never render but count toward the 50-page cap', async () => {
    const b = await fresh();
    await putCore(b.brain, 'secret', 'S', 'visibility: private');
    await putCore(b.brain, 'unsafe', 'U', 'quarantine: true');
    expect((await sessionCoreBlock(b.brain.db, owner)).text).toBe('');
    const rows = await loadCoreRows(b.brain.db);
    expect(rows).toHaveLength(2);
    b.cleanup();
  });

  it('budget refusal: nothing written, envelope fields, message naming the fixes, largest pages the caller can see', async () => {
    const b = await fresh({ 'memory.core.max_chars': 500 });
    await putCore(b.brain, 'prefs/habits', 'h'.repeat(300));
    await putPage(b.brain, { ...owner, source: 'hidden' }, 'big', md('title: big\nalways_load: true', 'q'.repeat(100)));
    const before = await events(b);
    const err = await putPage(b.brain, remote, 'notes/new', md('title: n', 'n')).then(() => null); // non-core: never checked
    expect(err).toBeNull();
    const refused = await putCore(b.brain, 'prefs/more', 'm'.repeat(200)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CoreBudgetExceededError);
    const e = refused as CoreBudgetExceededError;
    expect(e.toEnvelope()).toEqual({
      error: 'core_budget_exceeded',
      message: e.message,
      suggestion: expect.stringContaining('brainstream config set memory.core.max_chars 6000'),
      reason: 'max_chars',
      projected_chars: expect.any(Number),
      current_chars: await used(b),
      max_chars: 500,
      over_by: e.details.projected_chars - 500,
      page_count: 3,
      max_pages: 50,
      largest_pages: [
        { source_id: 'default', slug: 'prefs/habits', chars: expect.any(Number) },
        { source_id: 'default', slug: 'prefs/more', chars: expect.any(Number) },
        { source_id: 'hidden', slug: 'big', chars: expect.any(Number) },
      ],
    });
    expect(e.message).toMatch(/^core would be \d+ chars, \d+ over memory\.core\.max_chars=500; largest core pages you can see: prefs\/habits \(\d+\), prefs\/more \(\d+\), hidden:big \(\d+\)\. Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory\.core\.max_chars 6000 \(see brainstream core status --json\)$/);
    expect(await events(b)).toBe(before + 1); // only the non-core page was written
    // A remote caller of `default` is never shown a page of a source it cannot read (the total still counts it).
    const fromRemote = (await putPage(b.brain, remote, 'prefs/habits', md('title: prefs/habits', 'h'.repeat(400))).catch((x: unknown) => x)) as CoreBudgetExceededError;
    expect(fromRemote.details.largest_pages).toEqual([{ source_id: 'default', slug: 'prefs/habits', chars: expect.any(Number) }]);
    expect(fromRemote.details.projected_chars).toBeGreaterThan(400 + 100);
    b.cleanup();
  });

  it('shrinking and size-neutral writes pass while over budget; landing exactly on max_chars passes', async () => {
    const b = await fresh({ 'memory.core.max_chars': 500 });
    await putCore(b.brain, 'a', 'x');
    const left = 500 - (await used(b));
    await putCore(b.brain, 'a', 'x'.repeat(1 + left)); // exactly on the budget
    expect(await used(b)).toBe(500);
    await expect(putCore(b.brain, 'a', 'x'.repeat(2 + left))).rejects.toBeInstanceOf(CoreBudgetExceededError);
    b.setConfig({ 'memory.core.max_chars': 500, 'memory.core.enabled': true });
    b.setConfig({ 'memory.core.max_chars': 600 });
    await putCore(b.brain, 'a', 'x'.repeat(90 + left)); // 589 chars
    b.setConfig({ 'memory.core.max_chars': 500 }); // now over budget
    await putCore(b.brain, 'a', 'y'.repeat(90 + left)); // size-neutral: passes
    await putCore(b.brain, 'a', 'x'.repeat(50 + left)); // shrink, still over: passes
    await expect(putCore(b.brain, 'a', 'x'.repeat(51 + left))).rejects.toBeInstanceOf(CoreBudgetExceededError);
    await putPage(b.brain, owner, 'a', md('title: a', 'x'.repeat(5000))); // owner un-cores it: a shrink
    expect(await used(b)).toBe(0);
    b.cleanup();
  });

  it('a 51st core page is refused (reason max_pages); a core page with 100 KB of compiled truth is refused', async () => {
    const b = await fresh({ 'memory.core.max_chars': 6000 });
    for (let i = 0; i < 50; i++) await putCore(b.brain, `c/${String(i).padStart(2, '0')}`, '');
    const e = (await putCore(b.brain, 'c/50', '').catch((x: unknown) => x)) as CoreBudgetExceededError;
    expect(e).toBeInstanceOf(CoreBudgetExceededError);
    expect(e.details).toMatchObject({ reason: 'max_pages', page_count: 51, max_pages: 50 });
    expect(e.message).toMatch(/^core would have 51 pages, 1 over the limit of 50 core pages/);
    await putPage(b.brain, owner, 'c/50', md('title: x', 'not core')); // non-core: fine
    const big = (await putCore(b.brain, 'c/00', 'k'.repeat(100 * 1024)).catch((x: unknown) => x)) as CoreBudgetExceededError;
    expect(big.details).toMatchObject({ reason: 'max_chars', max_chars: 6000 });
    expect(big.details.over_by).toBeGreaterThan(100_000 - 6000);
    b.cleanup();
  });

  it('import is never guarded: it may push core over budget, and doctor reports the overage', async () => {
    const b = await fresh({ 'memory.core.max_chars': 500 });
    const dir = join(b.home, 'notes');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'big.md'), md('title: Big\nalways_load: true', 'b'.repeat(100 * 1024)));
    const summary = await importFolder(b.brain, dir, 'default');
    expect(summary.added).toBe(1);
    const check = coreDoctorCheck({ config: { 'memory.core.enabled': true, 'memory.core.max_chars': 500 }, pages: await loadCoreRows(b.brain.db), compiledFiles: [], writers: [], today });
    expect(check.status).toBe('warn');
    expect(check.details.findings[0]).toMatchObject({ kind: 'over_budget' });
    // …and every guarded write that does not shrink is refused until it is fixed; a shrink passes.
    await expect(putCore(b.brain, 'other', 'o')).rejects.toBeInstanceOf(CoreBudgetExceededError);
    await putCore(b.brain, 'big', 'short now');
    b.cleanup();
  });

  it('remote callers cannot change always_load or core_priority; echoes pass; omitted keys keep stored values', async () => {
    const b = await fresh();
    await putCore(b.brain, 'notes/x', 'v1', 'core_priority: 20');
    await putPage(b.brain, owner, 'plain', md('title: plain', 'p'));
    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: { code: string; message: string }) => `${e.code}: ${e.message}`);
    expect(await refusal(putPage(b.brain, remote, 'notes/x', md('title: notes/x\nalways_load: false', 'v2')))).toBe(
      'core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core remove --source default notes/x',
    );
    expect(await refusal(putPage(b.brain, remote, 'plain', md('title: plain\nalways_load: true\ncore_priority: 7', 'p')))).toBe(
      'core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core add --source default plain --priority 7',
    );
    expect(await refusal(putPage(b.brain, remote, 'notes/x', md('title: notes/x\ncore_priority: 5', 'v2')))).toMatch(/^core_mark_owner_only: .*core add --source default notes\/x --priority 5$/);
    expect(await refusal(putPage(b.brain, remote, 'plain', md('title: plain\ncore_priority: 3', 'p')))).toMatch(/^core_mark_owner_only: /); // also on a non-core page
    // Not a change: echoes, always_load: false where none was set, core_priority: 100 where none was set.
    await putPage(b.brain, remote, 'notes/x', md('title: notes/x\nalways_load: true\ncore_priority: 20', 'v2'));
    await putPage(b.brain, remote, 'plain', md('title: plain\nalways_load: false\ncore_priority: 100', 'p2'));
    await putPage(b.brain, remote, 'notes/x', md('title: notes/x', 'v3 without the keys'));
    expect((await findPage(b.brain.db, 'default', 'notes/x'))!.frontmatter).toEqual({ always_load: true, core_priority: 20 });
    b.cleanup();
  });

  it('remote deletes: never a core page, only in the bound source; owner deletes always pass', async () => {
    const b = await fresh();
    await putCore(b.brain, 'people/alice-example', 'A');
    await putPage(b.brain, { ...owner, source: 'work' }, 'w', md('title: w', 'w'));
    const e = await deletePage(b.brain, remote, 'default', 'people/alice-example').catch((x: { code: string; message: string }) => x);
    expect(e).toMatchObject({
      code: 'core_delete_owner_only',
      message: 'only the brain owner can delete a core page. Ask the user to run: brainstream core remove --source default people/alice-example (after which the page can be deleted)',
    });
    await expect(deletePage(b.brain, remote, 'work', 'w')).rejects.toMatchObject({ code: 'source_not_writable' });
    await deletePage(b.brain, owner, 'default', 'people/alice-example');
    expect(await loadCoreRows(b.brain.db)).toEqual([expect.objectContaining({ slug: 'people/alice-example', deleted: true })]);
    b.cleanup();
  });

  it('order of checks: owner-only keys before the remote-edit policy, the policy before the budget', async () => {
    const b = await fresh({ 'memory.core.remote_edit': 'refuse', 'memory.core.max_chars': 500 });
    await putCore(b.brain, 'a', 'short');
    const keys = await putPage(b.brain, remote, 'a', md('title: a\nalways_load: false', 'x'.repeat(900))).catch((e: { code: string }) => e.code);
    expect(keys).toBe('core_mark_owner_only');
    const policy = await putPage(b.brain, remote, 'a', md('title: a', 'x'.repeat(900))).catch((e: { code: string }) => e.code);
    expect(policy).toBe('core_remote_edit_refused');
    b.setConfig({ 'memory.core.max_chars': 500 });
    const budget = await putPage(b.brain, remote, 'a', md('title: a', 'x'.repeat(900))).catch((e: { code: string }) => e.code);
    expect(budget).toBe('core_budget_exceeded');
    b.cleanup();
  });
});
