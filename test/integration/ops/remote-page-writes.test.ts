import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { ownerCaller, remoteCaller } from '../../../src/caller.js';
import { openMemoryDb } from '../../support/databases.js';
import { remoteWritesCheck } from '../../../src/doctor/remote-writes.js';
import { deletePage, getPage, putPage } from '../../../src/ops/page-ops.js';
import { errorEnvelope } from '../../../src/ops/registry.js';
import { findPage } from '../../../projections/pages-queries.js';

let brain: Brain;
const owner = ownerCaller('default');
const remote = remoteCaller('default');
const VAULT = '---\ntitle: Vault\nvisibility: private\n---\nThe safe code is 1234.\n';
const TAKES = '<!--- gbrain:takes:begin -->\n- owner: not to be trusted\n<!--- gbrain:takes:end -->';
const FACTS = [
  '<!--- gbrain:facts:begin -->',
  '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |',
  '|---|---|---|---|---|---|---|---|---|---|',
  '| 1 | lives at 5 Elm St | fact | 1.0 | private | medium | 2026-01-01 |  | owner |  |',
  '| 2 | works at Acme | fact | 1.0 | world | medium | 2026-01-01 |  | owner |  |',
  '<!--- gbrain:facts:end -->',
].join('\n');

const failure = async (work: Promise<unknown>): Promise<unknown> => work.then(() => ({ error: 'none' }), errorEnvelope);

beforeAll(async () => {
  brain = await openBrainOn(await openMemoryDb());
  await putPage(brain, owner, 'notes/vault', VAULT);
  await putPage(brain, owner, 'people/bob', `---\ntitle: Bob\nalways_load: true\ncore_priority: 7\n---\nBob runs ops.\n\n${TAKES}\n\n${FACTS}\n`);
});

afterAll(async () => brain?.close());

describe('a remote caller and a page it may not see', () => {
  it('is answered for a private slug exactly as for a free one, and the private page is untouched', async () => {
    const onPrivate = await putPage(brain, remote, 'notes/vault', 'clobbered\n');
    const onFree = await putPage(brain, remote, 'notes/free-slug', 'clobbered\n');
    expect(onPrivate).toEqual({ ...onFree, slug: 'notes/vault' });
    const vault = await findPage(brain.db, 'default', 'notes/vault');
    expect(vault?.compiled_truth).toBe('The safe code is 1234.');
    expect(vault?.frontmatter.visibility).toBe('private');
    expect(vault?.version).toBe(1);
  });

  it('cannot delete it, and is told exactly what an absent page tells', async () => {
    const onPrivate = (await failure(deletePage(brain, remote, 'default', 'notes/vault'))) as { message: string };
    const onAbsent = (await failure(deletePage(brain, remote, 'default', 'notes/none'))) as { message: string };
    expect(onPrivate).toEqual({ ...onAbsent, message: onAbsent.message.replace('notes/none', 'notes/vault') });
    expect((await findPage(brain.db, 'default', 'notes/vault'))?.deleted).toBe(false);
  });

  it('keeps, on a read → edit → write, what it could not see, and the owner is told', async () => {
    const seen = await getPage(brain, remote, 'default', 'people/bob', null);
    expect(seen.compiled_truth).not.toContain('not to be trusted');
    expect(seen.compiled_truth).not.toContain('Elm St');
    const { always_load: _a, core_priority: _p, ...frontmatter } = seen.frontmatter;
    const yaml = Object.entries(frontmatter).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n');
    const status = await putPage(brain, remote, 'people/bob', `---\n${yaml}\n---\n${seen.compiled_truth.replace('runs ops', 'runs ops and sales')}\n`);
    expect(status.status).toBe('updated');

    const saved = await findPage(brain.db, 'default', 'people/bob');
    expect(saved?.compiled_truth).toContain('runs ops and sales');
    expect(saved?.compiled_truth).toContain('not to be trusted');
    expect(saved?.compiled_truth).toContain('lives at 5 Elm St');
    expect(saved?.frontmatter).toMatchObject({ always_load: true, core_priority: 7 });
    expect(saved?.remote_write).toMatchObject({ kept: ['takes', 'private_facts', 'core_keys'] });

    const doctor = await remoteWritesCheck.run({ home: '', caller: owner, db: brain.db, sources: null, now: new Date() });
    expect(doctor).toMatchObject({ name: 'remote_writes', status: 'warn' });
    expect(doctor.message).toContain('default:people/bob');

    // The owner's next write is the review: the note goes away.
    await putPage(brain, owner, 'people/bob', `---\ntitle: Bob\nalways_load: true\n---\n${saved!.compiled_truth}\n`);
    expect((await findPage(brain.db, 'default', 'people/bob'))?.remote_write).toBeNull();
    expect((await remoteWritesCheck.run({ home: '', caller: owner, db: brain.db, sources: null, now: new Date() })).status).toBe('ok');
  });

  it('may add pages to its bound source but never read or replace them when its grant leaves that source out', async () => {
    const dropBox = remoteCaller('default', ['team']);
    await putPage(brain, dropBox, 'notes/drop', 'Dropped.\n');
    expect((await getPage(brain, owner, 'default', 'notes/drop', null)).compiled_truth).toBe('Dropped.');
    expect(await failure(getPage(brain, dropBox, 'default', 'notes/drop', null))).toMatchObject({ error: 'page_not_found' });
    // A second write to the same slug is discarded, answered as the first was: the page stays.
    expect(await putPage(brain, dropBox, 'notes/drop', 'Replaced.\n')).toMatchObject({ status: 'created' });
    expect((await getPage(brain, owner, 'default', 'notes/drop', null)).compiled_truth).toBe('Dropped.');
    expect(await failure(deletePage(brain, dropBox, 'default', 'notes/drop'))).toMatchObject({ error: 'page_not_found' });
    expect((await getPage(brain, owner, 'default', 'notes/drop', null)).compiled_truth).toBe('Dropped.');
  });
});
