import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const home = tempDir('bs-core-cli-');
let cli: CliSession;
beforeAll(async () => {
  cli = await openCliSession(home.path);
});
afterAll(async () => {
  await cli.close();
  home.cleanup();
});
const bs = (args: string[], input = '', env: NodeJS.ProcessEnv = {}) => cli.run(args, { input, env });
const page = (frontmatter: string, body: string) => `---\n${frontmatter}\n---\n${body}\n`;

describe('core CLI walk-through', () => {
  it('core init, then enabling is a separate step; init twice is fine', async () => {
    const r = await bs(['core', 'init']);
    expect(r).toEqual({
      code: 0,
      stdout: 'core: initialised default:core/profile (priority 10, 95 chars; core 110/4000)\nhint: core memory is off; turn it on with: brainstream config set memory.core.enabled true\n',
      stderr: '',
    });
    expect((await bs(['core', 'init'])).stdout).toMatch(/^core: already initialised\n/);
    expect((await bs(['config', 'set', 'memory.core.enabled', 'true'])).stdout).toBe('memory.core.enabled = true\n');
    expect(await bs(['core', 'init'])).toEqual({ code: 0, stdout: 'core: already initialised\n', stderr: '' });
  });

  it('page put, core add with a priority, list, show and status --json', async () => {
    expect((await bs(['page', 'put', 'prefs/habits'], page('title: Working preferences', 'Short answers.\n\n<!-- timeline -->\n\n- 2026-01-01 noted'))).stdout).toBe('put default:prefs/habits (created)\n');
    expect((await bs(['core', 'add', 'prefs/habits', '--priority', '20'])).stdout).toBe('core: added default:prefs/habits (priority 20, 53 chars; core 165/4000)\n');
    expect((await bs(['core', 'add', 'prefs/habits'])).stdout).toBe('core: unchanged default:prefs/habits (priority 20, 53 chars; core 165/4000)\n');
    expect((await bs(['core', 'list'])).stdout).toBe('10  default:core/profile  95 chars\n20  default:prefs/habits  53 chars\ntotal 165/4000 chars, 2/50 pages\n');
    const show = await bs(['core', 'show']);
    expect(show.stdout).toMatch(/^# Core memory\n\n## Profile \(core\/profile\)\n\n## Who I am[\s\S]*\n\n## Working preferences \(prefs\/habits\)\n\nShort answers\.\n$/);
    expect(show.stdout).not.toContain('2026-01-01'); // the timeline never enters core
    const status = JSON.parse((await bs(['core', 'status', '--json'])).stdout);
    expect(status).toMatchObject({ enabled: true, max_chars: 4000, used_chars: 165, over_by: 0, over_budget: false, remaining_chars: 3835, page_count: 2, max_pages: 50, remote_edit: 'notify', pending_notices: [] });
    expect(Object.keys(status)).toEqual(['enabled', 'max_chars', 'used_chars', 'over_by', 'over_budget', 'remaining_chars', 'page_count', 'max_pages', 'revision', 'remote_edit', 'pending_notices', 'pages']);
  });

  it('budget refusal: one stderr line, exit 1, the envelope on stdout with --json; nothing written', async () => {
    expect((await bs(['config', 'set', 'memory.core.max_chars', '500'])).code).toBe(0);
    const r = await bs(['page', 'put', 'prefs/more', '--json'], page('title: More\nalways_load: true', 'm'.repeat(400)));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'brainstream: core_budget_exceeded: core would be 589 chars, 89 over memory.core.max_chars=500; largest core pages you can see: prefs/more (422), core/profile (95), prefs/habits (53). Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars 6000 (see brainstream core status --json)\n',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'core_budget_exceeded', reason: 'max_chars', projected_chars: 589, current_chars: 165, max_chars: 500, over_by: 89, page_count: 3, max_pages: 50 });
    expect((await bs(['page', 'get', 'prefs/more'])).stderr).toBe('brainstream: page_not_found: no page default:prefs/more\n');
  });

  it('--as remote: owner-only marks, deletes and commands, each naming what the user can run', async () => {
    const mark = await bs(['--as', 'remote', 'core', 'add', 'prefs/habits', '--priority', '5']);
    expect(mark).toEqual({
      code: 1,
      stdout: '',
      stderr: 'brainstream: core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core add --source default prefs/habits --priority 5\n',
    });
    expect((await bs(['--as', 'remote', 'core', 'remove', 'prefs/habits'])).stderr).toBe(
      'brainstream: core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core remove --source default prefs/habits\n',
    );
    expect((await bs(['--as', 'remote', 'page', 'delete', 'prefs/habits'])).stderr).toBe(
      'brainstream: core_delete_owner_only: only the brain owner can delete a core page. Ask the user to run: brainstream core remove --source default prefs/habits (after which the page can be deleted)\n',
    );
    for (const args of [['core', 'init'], ['core', 'ack', 'prefs/habits', '--revision', 'r1'], ['core', 'suggest', '--apply'], ['config', 'set', 'memory.core.enabled', 'false'], ['compile-context', '--target', 'hermes', '--include-core'], ['import', home.path]]) {
      const r = await bs(['--as', 'remote', ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^brainstream: owner_only: /);
    }
  });

  it('a remote edit raises a notice until acked; diff and ack by revision token', async () => {
    expect((await bs(['--as', 'remote', 'page', 'put', 'prefs/habits'], page('title: Working preferences', 'Short answers. Cite sources.'))).code).toBe(0);
    expect(JSON.parse((await bs(['core', 'status', '--json'])).stdout).pending_notices).toEqual([{ source_id: 'default', slug: 'prefs/habits', revision: 'r3' }]);
    expect((await bs(['core', 'diff', 'prefs/habits'])).stdout).toBe('--- prefs/habits@r2\n+++ prefs/habits@r3\n@@ -1 +1 @@\n-Short answers.\n+Short answers. Cite sources.\n');
    expect(await bs(['core', 'ack', 'prefs/habits', '--revision', 'r2'])).toMatchObject({ code: 1, stderr: 'brainstream: revision_not_found: r2 is not a pending remote revision of prefs/habits (pending: r3)\n' });
    expect((await bs(['core', 'ack', 'prefs/habits', '--revision', 'r3'])).stdout).toBe('core: acknowledged prefs/habits through r3\n');
    expect(await bs(['core', 'diff', 'prefs/habits'])).toEqual({ code: 0, stdout: 'no unacknowledged remote edits for prefs/habits\n', stderr: '' });
    expect((await bs(['config', 'set', 'memory.core.remote_edit', 'refuse'])).code).toBe(0);
    expect((await bs(['--as', 'remote', 'page', 'put', 'prefs/habits'], page('title: W', 'x'))).stderr).toMatch(/^brainstream: core_remote_edit_refused: core page prefs\/habits cannot be edited remotely/);
    expect((await bs(['config', 'set', 'memory.core.remote_edit', 'notify'])).code).toBe(0);
  });

  it('page_not_found, invalid_frontmatter, page_exists and usage errors (exit 2)', async () => {
    for (const args of [['core', 'add', 'nope'], ['core', 'diff', 'nope'], ['core', 'ack', 'nope', '--revision', 'r1']]) {
      expect(await bs(args)).toMatchObject({ code: 1, stderr: 'brainstream: page_not_found: no page default:nope\n' });
    }
    expect((await bs(['page', 'put', 'bad'], '---\ntitle: [unclosed\n---\n')).stderr).toMatch(/^brainstream: invalid_frontmatter: /);
    await bs(['page', 'put', 'core/profile', '--source', 'work'], page('title: P', 'p'));
    expect(await bs(['core', 'init', '--source', 'work'])).toMatchObject({ code: 1, stderr: 'brainstream: page_exists: work:core/profile already exists and is not core; to make it core run: brainstream core add --source work core/profile\n' });
    expect(await bs(['core', 'add', 'prefs/habits', '--priority', 'abc'])).toMatchObject({ code: 2, stderr: 'brainstream: --priority expects a number, got "abc"\n' });
    expect((await bs(['core', 'add', 'prefs/habits', '--priority', '1.5'])).code).toBe(2);
    expect((await bs(['core', 'ack', 'prefs/habits'])).code).toBe(2);
  });

  it('core show prints the block and notes on stderr while core is off; --as remote uses the caller’s sources', async () => {
    await bs(['config', 'set', 'memory.core.enabled', 'off']);
    const r = await bs(['core', 'show']);
    expect(r.stdout).toMatch(/^# Core memory\n/);
    expect(r.stderr).toBe('note: memory.core.enabled is false — sessions receive no core\n');
    await bs(['page', 'put', 'w', '--source', 'work'], page('title: W\nalways_load: true', 'work core'));
    expect((await bs(['--as', 'remote', '--grant', 'work', 'core', 'show', '--source', 'work'])).stdout).toBe('# Core memory\n\n## W (work:w)\n\nwork core\n');
    await bs(['config', 'set', 'memory.core.enabled', 'on']);
  });

  it('compile-context never writes core into a git-tracked file; hermes stays out of git', async () => {
    const repo = join(home.path, 'repo');
    mkdirSync(repo);
    const git = (...a: string[]) => spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...a], { cwd: repo, encoding: 'utf8' });
    git('init', '-q', '.');
    writeFileSync(join(repo, 'AGENTS.md'), '# Agents\n');
    git('add', 'AGENTS.md');
    git('commit', '-qm', 'init');
    const tracked = await cli.run(['compile-context', '--target', 'codex', '--include-core'], { cwd: repo });
    expect(tracked.code).toBe(1);
    expect(tracked.stderr).toBe(`brainstream: core_tracked_file_refused: ${join(repo, 'AGENTS.md')} is tracked by git, and core is never written into a git-tracked file; use --target hermes or --target claude-code (both kept out of git), or --target codex-global\n`);
    const hermes = await cli.run(['compile-context', '--target', 'hermes', '--include-core'], { cwd: repo });
    expect(hermes.stdout).toMatch(/^compile-context: wrote .*\.hermes\.md \(core=[0-9a-f]{16}, \d+ chars\)\n$/);
    expect(readFileSync(join(repo, '.hermes.md'), 'utf8')).toMatch(/^<!-- brainstream:compiled-context:begin core=[0-9a-f]{16} -->\n# Core memory\n/);
    expect(git('status', '--porcelain').stdout).toBe('');
    expect((await cli.run(['compile-context', '--target', 'hermes', '--remove-core'], { cwd: repo })).stdout).toMatch(/^compile-context: removed core from /);
    expect((await cli.run(['compile-context', '--target', 'nope', '--include-core'])).code).toBe(2);
    expect((await cli.run(['compile-context', '--target', 'hermes'])).code).toBe(2);
  });
});

describe('core show, core add warnings and core suggest on fresh brains', () => {
  // Each test needs a brain of its own (an empty one, its own config and pages).
  const fresh = tempDir('bs-core-cli-fresh-');
  const sessions: CliSession[] = [];
  afterAll(async () => {
    for (const s of sessions) await s.close();
    fresh.cleanup();
  });
  const brain = async (dir: string): Promise<CliSession> => {
    const session = await openCliSession(join(fresh.path, dir));
    sessions.push(session);
    return session;
  };

  it('core show on an empty brain prints nothing (the note about core being off goes to stderr)', async () => {
    const empty = await brain('empty');
    expect(await empty.run(['core', 'show'])).toEqual({ code: 0, stdout: '', stderr: 'note: memory.core.enabled is false — sessions receive no core\n' });
    expect((await empty.run(['config', 'set', 'memory.core.enabled', 'true'])).code).toBe(0);
    expect(await empty.run(['core', 'show'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('compile-context --include-core while core is off writes no core, succeeds and says why', async () => {
    const session = await brain('compile-off');
    const bs = (args: string[], input = '') => session.run(args, { input });
    const dir = join(fresh.path, 'compile-off-project');
    mkdirSync(dir);
    const run = () => session.run(['compile-context', '--target', 'claude-code', '--include-core'], { cwd: dir });
    await bs(['page', 'put', 'prefs'], page('title: Prefs\nalways_load: true', 'Short answers.'));
    const note = 'note: memory.core.enabled is false, so no core was written; turn it on with: brainstream config set memory.core.enabled true\n';
    expect(await run()).toEqual({ code: 0, stdout: `compile-context: no core block in ${join(dir, 'CLAUDE.local.md')}\n`, stderr: note });
    expect(existsSync(join(dir, 'CLAUDE.local.md'))).toBe(false);
    await bs(['config', 'set', 'memory.core.enabled', 'true']);
    expect((await run()).stdout).toMatch(/^compile-context: wrote .*CLAUDE\.local\.md \(core=[0-9a-f]{16}, 47 chars\)\n$/);
    await bs(['config', 'set', 'memory.core.enabled', 'false']);
    expect(await run()).toEqual({ code: 0, stdout: `compile-context: removed core from ${join(dir, 'CLAUDE.local.md')}\n`, stderr: note });
    expect(existsSync(join(dir, 'CLAUDE.local.md'))).toBe(false);
  });

  it('core add marks a private or quarantined page, warning on stderr that it will not render', async () => {
    const session = await brain('withheld');
    const bs = (args: string[], input = '') => session.run(args, { input });
    await session.importPages(join(fresh.path, 'withheld-pages'), {
      secret: page('title: Secret\nvisibility: private', 'hidden'),
      unsafe: page('title: Unsafe\nquarantine: true', 'flagged'),
    });
    expect(await bs(['core', 'add', 'secret'])).toEqual({
      code: 0,
      stdout: 'core: added default:secret (priority 100, 26 chars; core 0/4000)\n',
      stderr: 'warning: default:secret is private, so it is marked core but will not render\n',
    });
    expect(await bs(['core', 'add', 'unsafe', '--priority', '5'])).toEqual({
      code: 0,
      stdout: 'core: added default:unsafe (priority 5, 27 chars; core 0/4000)\n',
      stderr: 'warning: default:unsafe is quarantined, so it is marked core but will not render\n',
    });
    expect((await bs(['core', 'list'])).stdout).toBe(
      '5  default:unsafe  27 chars (quarantined — not rendered)\n100  default:secret  26 chars (private — not rendered)\ntotal 0/4000 chars, 2/50 pages\n',
    );
  });

  it('core suggest: at most 10 lines "<score>  <source>:<slug>  +<chars> chars", most recently read first within a score; --apply marks them', async () => {
    const session = await brain('suggest');
    const bs = (args: string[], input = '') => session.run(args, { input });
    const pages: Record<string, string> = {
      me: page('title: Me', 'Owner of this brain.'),
      'projects/apollo': page('title: Apollo\ntype: project\nstatus: active', 'Launch in May.'),
      'projects/old': page('title: Old\ntype: project\nstatus: done', 'Shipped.'),
      'notes/misc': page('title: Misc', 'Misc.'),
    };
    for (let i = 1; i <= 11; i++) pages[`prefs/p${String(i).padStart(2, '0')}`] = page(`title: P${String(i).padStart(2, '0')}`, `Pref ${String(i).padStart(2, '0')}.`);
    await session.importPages(join(fresh.path, 'suggest-pages'), pages);
    expect((await bs(['page', 'get', 'prefs/p07'])).code).toBe(0); // read once: ranks first among score 2

    const prefs = (ns: string[]) => ns.map((n) => `2  default:prefs/p${n}  +28 chars`);
    const expected = ['3  default:me  +32 chars', ...prefs(['07', '01', '02', '03', '04', '05', '06', '08', '09'])];
    expect(await bs(['core', 'suggest'])).toEqual({ code: 0, stdout: `${expected.join('\n')}\n`, stderr: '' });
    expect((await bs(['core', 'list'])).stdout).toBe('total 0/4000 chars, 0/50 pages\n'); // read-only

    const applied = await bs(['core', 'suggest', '--apply']);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toBe('');
    const lines = applied.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('core: added default:me (priority 100, 32 chars; core 47/4000)');
    expect(lines[1]).toBe('core: added default:prefs/p07 (priority 100, 28 chars; core 77/4000)');
    expect(lines[9]).toBe('core: added default:prefs/p09 (priority 100, 28 chars; core 317/4000)');
    expect((await bs(['core', 'suggest'])).stdout).toBe('2  default:prefs/p10  +28 chars\n2  default:prefs/p11  +28 chars\n1  default:projects/apollo  +43 chars\n');
  });

  it('core suggest --apply stops at the first refusal, reports it and exits 1', async () => {
    const session = await brain('refusal');
    const bs = (args: string[], input = '') => session.run(args, { input });
    await bs(['config', 'set', 'memory.core.max_chars', '500']);
    await session.importPages(join(fresh.path, 'refusal-pages'), {
      'prefs/a': page('title: A', 'a'.repeat(280)),
      'prefs/b': page('title: B', 'b'.repeat(280)),
      'prefs/c': page('title: C', 'c'.repeat(280)),
    });
    // Each fits alone, so all three are suggested; only the first fits once it is core.
    expect((await bs(['core', 'suggest'])).stdout).toBe('2  default:prefs/a  +296 chars\n2  default:prefs/b  +296 chars\n2  default:prefs/c  +296 chars\n');
    const r = await bs(['core', 'suggest', '--apply']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('core: added default:prefs/a (priority 100, 296 chars; core 311/500)\n');
    expect(r.stderr).toMatch(/^brainstream: core_budget_exceeded: default:prefs\/b: core would be 609 chars, 109 over memory\.core\.max_chars=500; /);
    expect(r.stderr.split('\n')).toHaveLength(2); // one line
    expect((await bs(['core', 'list'])).stdout).toBe('100  default:prefs/a  296 chars\ntotal 311/500 chars, 1/50 pages\n');
  });
});
