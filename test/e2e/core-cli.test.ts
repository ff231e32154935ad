import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const home = tempDir('bs-core-cli-');
afterAll(() => home.cleanup());
const bs = (args: string[], input = '', env: NodeJS.ProcessEnv = {}) => runCli(['--home', home.path, ...args], { input, env });
const page = (frontmatter: string, body: string) => `---\n${frontmatter}\n---\n${body}\n`;

describe('core CLI walk-through (§14)', { timeout: 120_000 }, () => {
  it('core init, then enabling is a separate step; init twice is fine', () => {
    const r = bs(['core', 'init']);
    expect(r).toEqual({
      code: 0,
      stdout: 'core: initialised default:core/profile (priority 10, 95 chars; core 110/4000)\nhint: core memory is off; turn it on with: brainstream config set memory.core.enabled true\n',
      stderr: '',
    });
    expect(bs(['core', 'init']).stdout).toMatch(/^core: already initialised\n/);
    expect(bs(['config', 'set', 'memory.core.enabled', 'true']).stdout).toBe('memory.core.enabled = true\n');
    expect(bs(['core', 'init'])).toEqual({ code: 0, stdout: 'core: already initialised\n', stderr: '' });
  });

  it('page put, core add with a priority, list, show and status --json', () => {
    expect(bs(['page', 'put', 'prefs/habits'], page('title: Working preferences', 'Short answers.\n\n<!-- timeline -->\n\n- 2026-01-01 noted')).stdout).toBe('put default:prefs/habits (created)\n');
    expect(bs(['core', 'add', 'prefs/habits', '--priority', '20']).stdout).toBe('core: added default:prefs/habits (priority 20, 53 chars; core 165/4000)\n');
    expect(bs(['core', 'add', 'prefs/habits']).stdout).toBe('core: unchanged default:prefs/habits (priority 20, 53 chars; core 165/4000)\n');
    expect(bs(['core', 'list']).stdout).toBe('10  default:core/profile  95 chars\n20  default:prefs/habits  53 chars\ntotal 165/4000 chars, 2/50 pages\n');
    const show = bs(['core', 'show']);
    expect(show.stdout).toMatch(/^# Core memory\n\n## Profile \(core\/profile\)\n\n## Who I am[\s\S]*\n\n## Working preferences \(prefs\/habits\)\n\nShort answers\.\n$/);
    expect(show.stdout).not.toContain('2026-01-01'); // the timeline never enters core
    const status = JSON.parse(bs(['core', 'status', '--json']).stdout);
    expect(status).toMatchObject({ enabled: true, max_chars: 4000, used_chars: 165, over_by: 0, over_budget: false, remaining_chars: 3835, page_count: 2, max_pages: 50, remote_edit: 'notify', pending_notices: [] });
    expect(Object.keys(status)).toEqual(['enabled', 'max_chars', 'used_chars', 'over_by', 'over_budget', 'remaining_chars', 'page_count', 'max_pages', 'revision', 'remote_edit', 'pending_notices', 'pages']);
  });

  it('§13 budget refusal: one stderr line, exit 1, the envelope on stdout with --json; nothing written', () => {
    expect(bs(['config', 'set', 'memory.core.max_chars', '500']).code).toBe(0);
    const r = bs(['page', 'put', 'prefs/more', '--json'], page('title: More\nalways_load: true', 'm'.repeat(400)));
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'brainstream: core_budget_exceeded: core would be 589 chars, 89 over memory.core.max_chars=500; largest core pages you can see: prefs/more (422), core/profile (95), prefs/habits (53). Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars 6000 (see brainstream core status --json)\n',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ error: 'core_budget_exceeded', reason: 'max_chars', projected_chars: 589, current_chars: 165, max_chars: 500, over_by: 89, page_count: 3, max_pages: 50 });
    expect(bs(['page', 'get', 'prefs/more']).stderr).toBe('brainstream: page_not_found: no page default:prefs/more\n');
  });

  it('§5/§13 --as remote: owner-only marks, deletes and commands, each naming what the user can run', () => {
    const mark = bs(['--as', 'remote', 'core', 'add', 'prefs/habits', '--priority', '5']);
    expect(mark).toEqual({
      code: 1,
      stdout: '',
      stderr: 'brainstream: core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core add --source default prefs/habits --priority 5\n',
    });
    expect(bs(['--as', 'remote', 'core', 'remove', 'prefs/habits']).stderr).toBe(
      'brainstream: core_mark_owner_only: only the brain owner can change core membership or priority. Ask the user to run: brainstream core remove --source default prefs/habits\n',
    );
    expect(bs(['--as', 'remote', 'page', 'delete', 'prefs/habits']).stderr).toBe(
      'brainstream: core_delete_owner_only: only the brain owner can delete a core page. Ask the user to run: brainstream core remove --source default prefs/habits (after which the page can be deleted)\n',
    );
    for (const args of [['core', 'init'], ['core', 'ack', 'prefs/habits', '--revision', 'r1'], ['core', 'suggest', '--apply'], ['config', 'set', 'memory.core.enabled', 'false'], ['compile-context', '--target', 'hermes', '--include-core'], ['import', home.path]]) {
      const r = bs(['--as', 'remote', ...args]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^brainstream: owner_only: /);
    }
  });

  it('§6 a remote edit raises a notice until acked; diff and ack by revision token', () => {
    expect(bs(['--as', 'remote', 'page', 'put', 'prefs/habits'], page('title: Working preferences', 'Short answers. Cite sources.')).code).toBe(0);
    expect(JSON.parse(bs(['core', 'status', '--json']).stdout).pending_notices).toEqual([{ source_id: 'default', slug: 'prefs/habits', revision: 'r3' }]);
    expect(bs(['core', 'diff', 'prefs/habits']).stdout).toBe('--- prefs/habits@r2\n+++ prefs/habits@r3\n@@ -1 +1 @@\n-Short answers.\n+Short answers. Cite sources.\n');
    expect(bs(['core', 'ack', 'prefs/habits', '--revision', 'r2'])).toMatchObject({ code: 1, stderr: 'brainstream: revision_not_found: r2 is not a pending remote revision of prefs/habits (pending: r3)\n' });
    expect(bs(['core', 'ack', 'prefs/habits', '--revision', 'r3']).stdout).toBe('core: acknowledged prefs/habits through r3\n');
    expect(bs(['core', 'diff', 'prefs/habits'])).toEqual({ code: 0, stdout: 'no unacknowledged remote edits for prefs/habits\n', stderr: '' });
    expect(bs(['config', 'set', 'memory.core.remote_edit', 'refuse']).code).toBe(0);
    expect(bs(['--as', 'remote', 'page', 'put', 'prefs/habits'], page('title: W', 'x')).stderr).toMatch(/^brainstream: core_remote_edit_refused: core page prefs\/habits cannot be edited remotely/);
    expect(bs(['config', 'set', 'memory.core.remote_edit', 'notify']).code).toBe(0);
  });

  it('§13 page_not_found, invalid_frontmatter, page_exists and usage errors (exit 2)', () => {
    for (const args of [['core', 'add', 'nope'], ['core', 'diff', 'nope'], ['core', 'ack', 'nope', '--revision', 'r1']]) {
      expect(bs(args)).toMatchObject({ code: 1, stderr: 'brainstream: page_not_found: no page default:nope\n' });
    }
    expect(bs(['page', 'put', 'bad'], '---\ntitle: [unclosed\n---\n').stderr).toMatch(/^brainstream: invalid_frontmatter: /);
    bs(['page', 'put', 'core/profile', '--source', 'work'], page('title: P', 'p'));
    expect(bs(['core', 'init', '--source', 'work'])).toMatchObject({ code: 1, stderr: 'brainstream: page_exists: work:core/profile already exists and is not core; to make it core run: brainstream core add --source work core/profile\n' });
    expect(bs(['core', 'add', 'prefs/habits', '--priority', 'abc'])).toMatchObject({ code: 2, stderr: 'brainstream: --priority expects a number, got "abc"\n' });
    expect(bs(['core', 'add', 'prefs/habits', '--priority', '1.5']).code).toBe(2);
    expect(bs(['core', 'ack', 'prefs/habits']).code).toBe(2);
  });

  it('core show prints the block and notes on stderr while core is off; --as remote uses the caller’s sources', () => {
    bs(['config', 'set', 'memory.core.enabled', 'off']);
    const r = bs(['core', 'show']);
    expect(r.stdout).toMatch(/^# Core memory\n/);
    expect(r.stderr).toBe('note: memory.core.enabled is false — sessions receive no core\n');
    bs(['page', 'put', 'w', '--source', 'work'], page('title: W\nalways_load: true', 'work core'));
    expect(bs(['--as', 'remote', '--grant', 'work', 'core', 'show', '--source', 'work']).stdout).toBe('# Core memory\n\n## W (work:w)\n\nwork core\n');
    bs(['config', 'set', 'memory.core.enabled', 'on']);
  });

  it('compile-context never writes core into a git-tracked file; hermes stays out of git', () => {
    const repo = join(home.path, 'repo');
    mkdirSync(repo);
    const git = (...a: string[]) => spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...a], { cwd: repo, encoding: 'utf8' });
    git('init', '-q', '.');
    writeFileSync(join(repo, 'AGENTS.md'), '# Agents\n');
    git('add', 'AGENTS.md');
    git('commit', '-qm', 'init');
    const tracked = runCli(['--home', home.path, 'compile-context', '--target', 'codex', '--include-core'], { cwd: repo });
    expect(tracked.code).toBe(1);
    expect(tracked.stderr).toBe(`brainstream: core_tracked_file_refused: ${join(repo, 'AGENTS.md')} is tracked by git, and core is never written into a git-tracked file; use --target hermes (kept out of git) or --target codex-global\n`);
    const hermes = runCli(['--home', home.path, 'compile-context', '--target', 'hermes', '--include-core'], { cwd: repo });
    expect(hermes.stdout).toMatch(/^compile-context: wrote .*\.hermes\.md \(core=[0-9a-f]{16}, \d+ chars\)\n$/);
    expect(readFileSync(join(repo, '.hermes.md'), 'utf8')).toMatch(/^<!-- brainstream:compiled-context:begin core=[0-9a-f]{16} -->\n# Core memory\n/);
    expect(git('status', '--porcelain').stdout).toBe('');
    expect(runCli(['--home', home.path, 'compile-context', '--target', 'hermes', '--remove-core'], { cwd: repo }).stdout).toMatch(/^compile-context: removed core from /);
    expect(runCli(['--home', home.path, 'compile-context', '--target', 'nope', '--include-core']).code).toBe(2);
    expect(runCli(['--home', home.path, 'compile-context', '--target', 'hermes']).code).toBe(2);
  });
});
