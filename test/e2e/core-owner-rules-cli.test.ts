import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

// Owner-only refusals, budget refusal texts and `rebuild` of the core projections, through the
// CLI as serve runs it. Each test has its own home (the budget settings differ), so they do not
// depend on one another.
const homes = tempDir('bs-core-rules-cli-');
let session: CliSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});
afterAll(() => homes.cleanup());
const brainAt = async (name: string) => {
  const cli = await openCliSession(join(homes.path, name));
  session = cli;
  return (args: string[], input = '') => cli.run(args, { input });
};
const page = (frontmatter: string, body: string) => `---\n${frontmatter}\n---\n${body}\n`;
const OWNER_ONLY = 'brainstream: core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run:';

describe('owner-only rules through the CLI', () => {
  it('--as remote core remove of a soft-deleted core page: core_mark_owner_only, exit 1; the owner’s core remove then works', async () => {
    const bs = await brainAt('deleted');
    expect((await bs(['page', 'put', 'notes/gone'], page('title: Gone\nalways_load: true', 'Gone soon.'))).code).toBe(0);
    expect((await bs(['page', 'delete', 'notes/gone'])).code).toBe(0);
    expect(await bs(['--as', 'remote', 'core', 'remove', 'notes/gone'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `${OWNER_ONLY} brainstream core remove --source default notes/gone\n`,
    });
    expect(JSON.parse((await bs(['core', 'status', '--json'])).stdout)).toMatchObject({ used_chars: 0, page_count: 0 });
    const removed = await bs(['core', 'remove', 'notes/gone']);
    expect(removed).toMatchObject({ code: 0, stdout: 'core: removed default:notes/gone (core 0/4000)\n' });
  });

  it('refusals name --priority only when one was requested, and a value `core add --priority` accepts; the named command runs', async () => {
    const bs = await brainAt('priority');
    expect((await bs(['page', 'put', 'notes/x'], page('title: X\ncore_priority: 100', 'x'))).code).toBe(0);
    const add = await bs(['--as', 'remote', 'core', 'add', 'notes/x', '--json']);
    expect(add.stderr).toBe(`${OWNER_ONLY} brainstream core add --source default notes/x\n`);
    expect(JSON.parse(add.stdout)).toMatchObject({ error: 'core_mark_owner_only', command: 'brainstream core add --source default notes/x' });

    expect((await bs(['page', 'put', 'prefs/habits'], page('title: Habits\nalways_load: true\ncore_priority: 10', 'Short answers.'))).code).toBe(0);
    const put = await bs(['--as', 'remote', 'page', 'put', 'prefs/habits', '--json'], page('title: Habits\ncore_priority: 2.5', 'Short answers.'));
    expect(put.code).toBe(1);
    expect(put.stderr).toBe(
      `${OWNER_ONLY} brainstream core add --source default prefs/habits --priority 2 (--priority takes a whole number within ±2147483647, so core_priority 2.5 becomes 2)\n`,
    );
    // Run exactly the named command as the owner: the CLI accepts it and it does what was asked.
    const command = (JSON.parse(put.stdout) as { command: string }).command;
    expect(command).toBe('brainstream core add --source default prefs/habits --priority 2');
    const ran = await bs(command.split(' ').slice(1));
    expect(ran).toMatchObject({ code: 0, stdout: expect.stringMatching(/^core: added default:prefs\/habits \(priority 2, /) });
  });
});

describe('budget refusal texts through the CLI', () => {
  it('max_chars: the spec’s example message, character for character, for a remote caller that cannot see every source', async () => {
    const bs = await brainAt('spec-example');
    expect((await bs(['config', 'set', 'memory.core.max_chars', '500'])).code).toBe(0);
    // work:w renders a 42-character section, in a source the remote caller cannot read.
    expect((await bs(['page', 'put', 'w', '--source', 'work'], page('title: W\nalways_load: true', 'w'.repeat(42 - '## W (work:w)\n\n'.length)))).code).toBe(0);
    expect((await bs(['page', 'put', 'prefs/habits'], page('title: Habits\nalways_load: true', 'short'))).code).toBe(0);
    // A remote rewrite that brings prefs/habits to a 1253-character section.
    const body = 'h'.repeat(1253 - '## Habits (prefs/habits)\n\n'.length);
    const r = await bs(['--as', 'remote', '--grant', 'default', 'page', 'put', 'prefs/habits'], page('title: Habits', body));
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'brainstream: core_budget_exceeded: core would be 1312 chars, 812 over memory.core.max_chars=500; largest core pages you can see: prefs/habits (1253). Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars 6000 (see brainstream core status --json)\n',
    });
  });

  it('max_chars at the 6000 ceiling: the refusal names only the fix that can work', async () => {
    const bs = await brainAt('ceiling');
    expect((await bs(['config', 'set', 'memory.core.max_chars', '6000'])).code).toBe(0);
    const r = await bs(['page', 'put', 'big'], page('title: Big\nalways_load: true', 'b'.repeat(6000)));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'brainstream: core_budget_exceeded: core would be 6029 chars, 29 over memory.core.max_chars=6000; largest core pages you can see: big (6014). Move detail into a linked non-core page and keep a one-line pointer (see brainstream core status --json)\n',
    );
  });

  it('max_pages: the projected count and size, how far over, the largest pages, and fixes without placeholders', async () => {
    const bs = await brainAt('pages');
    const vault = join(homes.path, 'pages-vault', 'c');
    mkdirSync(vault, { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(vault, `p${String(i).padStart(2, '0')}.md`), page('title: P\nalways_load: true', 'p'));
    expect((await bs(['import', join(homes.path, 'pages-vault')])).code).toBe(0);
    const r = await bs(['page', 'put', 'extra', '--json'], page('title: E\nalways_load: true', 'e'));
    expect(r.code).toBe(1);
    // 50 sections "## P (c/pNN)\n\np" (15) and "## E (extra)\n\ne" (15) under "# Core memory": 13 + 51 × 17.
    expect(r.stderr).toBe(
      'brainstream: core_budget_exceeded: core would have 51 pages, 1 over the limit of 50 core pages, and be 880 chars (memory.core.max_chars=4000); largest core pages you can see: c/p00 (15), c/p01 (15), c/p02 (15), c/p03 (15), c/p04 (15). Move detail into a linked non-core page and keep a one-line pointer in a page that is already core, or ask the user to take a page out of core with brainstream core remove (see brainstream core status --json)\n',
    );
    expect(r.stderr).not.toMatch(/<[a-z]+>/);
    expect(JSON.parse(r.stdout)).toMatchObject({ reason: 'max_pages', projected_chars: 880, page_count: 51, max_pages: 50, over_by: 0 });
  });

  it('core init is guarded; core remove always passes while core is over budget', async () => {
    const bs = await brainAt('guards');
    expect((await bs(['page', 'put', 'a'], page('title: A\nalways_load: true', 'a'.repeat(400)))).code).toBe(0);
    expect((await bs(['page', 'put', 'b'], page('title: B\nalways_load: true', 'b'.repeat(400)))).code).toBe(0);
    expect((await bs(['config', 'set', 'memory.core.max_chars', '500'])).code).toBe(0);
    const init = await bs(['core', 'init']);
    expect(init.code).toBe(1);
    expect(init.stderr).toMatch(/^brainstream: core_budget_exceeded: core would be \d+ chars, \d+ over memory\.core\.max_chars=500; /);
    expect((await bs(['page', 'get', 'core/profile'])).code).toBe(1);
    expect(await bs(['core', 'remove', 'a'])).toMatchObject({ code: 0, stdout: 'core: removed default:a (core 425/500)\n' });
    expect(await bs(['core', 'remove', 'b'])).toMatchObject({ code: 0, stdout: 'core: removed default:b (core 0/500)\n' });
  });
});

describe('`brainstream rebuild` knows the core projections', () => {
  it('rebuilds core-revisions and core-notices from sequence 0 with no row changed', async () => {
    const bs = await brainAt('rebuild');
    expect((await bs(['page', 'put', 'prefs'], page('title: Prefs\nalways_load: true', 'v1'))).code).toBe(0);
    expect((await bs(['--as', 'remote', 'page', 'put', 'prefs'], page('title: Prefs', 'v2'))).code).toBe(0);
    const check = await bs(['rebuild', 'core-revisions', 'core-notices', '--check']);
    expect(check).toMatchObject({
      code: 0,
      stdout: 'checked core-revisions: identical to a rebuild from sequence 0 (core_revisions 2, core_page_heads 1 rows)\nchecked core-notices: identical to a rebuild from sequence 0 (core_remote_revisions 1, core_revision_acks 0 rows)\n',
    });
    expect((await bs(['rebuild', 'core-notices'])).stdout).toMatch(/^rebuilt core-notices up to position \d+: core_remote_revisions 1, core_revision_acks 0 rows, no row changed\n$/);
    expect(JSON.parse((await bs(['core', 'status', '--json'])).stdout).pending_notices).toEqual([{ source_id: 'default', slug: 'prefs', revision: 'r2' }]);
  });
});
