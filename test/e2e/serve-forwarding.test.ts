import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/home.js';
import { CLI, runCliAsync, tempDir, type CliResult } from '../support/cli.js';
import { startServe, writePages, type ServeProcess } from './serve-harness.js';

const folder = tempDir('bs-fwd-src-');
const served = tempDir('bs-fwd-served-');
const direct = tempDir('bs-fwd-direct-');
let serve: ServeProcess;

const PAGES: Record<string, string> = {
  'people/alice-example': '---\ntitle: Alice Example\naliases: [alice]\n---\nAlice Example is an early founder.\n\n<!-- timeline -->\n\n- 2026-01-05 met\n',
  'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob Sample runs the seed fund.\n',
  'notes/secret-plan': '---\ntitle: Secret Plan\nvisibility: private\n---\nNobody else may read this.\n',
};

/** Runs the real binary; processes of different homes run at once. */
function cli(args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, BRAINSTREAM_SOURCE: '', ...options.env }, cwd: options.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

beforeAll(async () => {
  writePages(folder.path, PAGES);
  const imports = await Promise.all([served.path, direct.path].map((home) => cli(['--home', home, 'import', folder.path])));
  for (const r of imports) expect(r.code).toBe(0);
  serve = await startServe(served.path);
});

afterAll(async () => {
  await serve?.stop();
  for (const d of [folder, served, direct]) d.cleanup();
});

/** The same command line on the served brain (forwarded) and on the direct one, at once. */
function both(args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<[CliResult, CliResult]> {
  return Promise.all([cli(['--home', served.path, ...args], options), cli(['--home', direct.path, ...args], options)]);
}

/** Replaces each home's path by a placeholder, so outputs that name it compare. */
const neutral = (r: CliResult, home: string): CliResult => ({ ...r, stdout: r.stdout.replaceAll(home, '<home>'), stderr: r.stderr.replaceAll(home, '<home>') });

describe('commands forwarded to a running serve', () => {
  it('holds the brain: the lock is serve’s, so every command below had to go through its socket', () => {
    expect(existsSync(homePaths(served.path).socket)).toBe(true);
    expect(Number(readFileSync(homePaths(served.path).lock, 'utf8'))).toBe(serve.child.pid);
  });

  it.each([
    { name: 'page put (created)', args: ['page', 'put', 'notes/new-note'], input: '---\ntitle: New Note\n---\nFresh text about Bob Sample.\n' },
    { name: 'page put (unchanged, json)', args: ['page', 'put', 'notes/new-note', '--json'], input: '---\ntitle: New Note\n---\nFresh text about Bob Sample.\n' },
    { name: 'page get', args: ['page', 'get', 'people/alice-example'] },
    { name: 'page get --json with a session', args: ['page', 'get', 'people/alice-example', '--json', '--session', 's-1'] },
    { name: 'page get of a missing page', args: ['page', 'get', 'people/nobody'] },
    { name: 'page get of a missing page, json envelope', args: ['page', 'get', 'people/nobody', '--json'] },
    { name: 'remote caller cannot read a private page', args: ['--as', 'remote', 'page', 'get', 'notes/secret-plan'] },
    { name: 'page list --json', args: ['page', 'list', '--json'] },
    { name: 'volunteer-context', args: ['volunteer-context'], input: 'user: what do you think about Alice Example?\n' },
    { name: 'volunteer-context --json', args: ['volunteer-context', '--json', '--session-id', 's-1', '--turn', '3'], input: 'user: ask Bob Sample and Alice Example\n' },
    { name: 'volunteer-context, nothing volunteered', args: ['volunteer-context'], input: 'user: nothing to see here\n' },
    { name: 'volunteer-context, usage error', args: ['volunteer-context', '--max-pages', 'abc'], input: 'user: hi\n' },
    { name: 'volunteer-context, blank window', args: ['volunteer-context'], input: '\n\n' },
    { name: 'volunteer-context --stats --json', args: ['volunteer-context', '--stats', '--json'] },
    { name: 'unknown option', args: ['page', 'list', '--bogus'] },
  ])('$name: byte-identical to a direct run', async ({ args, input }) => {
    const [viaServe, viaDirect] = await both(args, { input });
    expect(viaServe).toEqual(viaDirect);
  });

  it('sees the caller’s environment and working directory', async () => {
    const env = { BRAINSTREAM_SOURCE: 'team' };
    const [put, putDirect] = await both(['page', 'put', 'notes/team-note'], { input: '# Team Note\n\nShared.\n', env });
    expect(put).toEqual(putDirect);
    expect(put.stdout).toBe('put team:notes/team-note (created)\n');
    const [imported, importedDirect] = await both(['import', '.'], { cwd: join(folder.path, 'people'), env });
    expect(neutral(imported, served.path)).toEqual(neutral(importedDirect, direct.path));
    expect(imported.stdout).toBe('import: 2 added, 0 updated, 0 unchanged, 0 failed (source team)\n');
  });

  it('keeps concurrent commands’ output apart', async () => {
    const slugs = ['people/alice-example', 'people/bob-sample', 'notes/new-note', 'notes/secret-plan'];
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => runCliAsync(['--home', served.path, 'page', 'get', slugs[i % slugs.length]!, '--json'])),
    );
    runs.forEach((r, i) => {
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).slug).toBe(slugs[i % slugs.length]);
    });
  });
});

// After the commands above: their serve is killed, leaving its socket behind.
describe('without a running serve', () => {
  it('ignores a stale socket left by a killed serve and opens the brain directly', async () => {
    const home = served.path;
    serve.child.kill('SIGKILL');
    await new Promise((r) => serve.child.once('exit', r));
    expect(existsSync(homePaths(home).socket)).toBe(true);
    const r = await cli(['--home', home, 'page', 'get', 'people/bob-sample']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Bob Sample runs the seed fund.');
    // A new serve takes over the stale files.
    const again = await startServe(home);
    expect((await cli(['--home', home, 'page', 'list'])).code).toBe(0);
    await again.stop();
  });
});
