import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/home.js';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { startServe, type ServeProcess } from './serve-harness.js';

/**
 * A second local user must find nothing to read or write in a home, neither in one brainstream
 * made nor in one that existed before (with the permissive modes an old version left behind).
 * Run as root, so the test can hand a folder to another uid and act as that uid with setpriv.
 */
const OTHER_UID = 65534;
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
if (process.env.CI === 'true' && !(isRoot && hasSetpriv)) throw new Error('the multi-user test needs root and setpriv (util-linux) in CI');

const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** Everything under `dir` whose mode lets group or other in. */
function openToOthers(dir: string): string[] {
  const r = spawnSync('find', [dir, '-perm', '/077'], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean);
}

/** Runs a small Node program as the other uid; it prints one JSON line of what it could do. */
function asOtherUser(script: string, args: string[]): Record<string, string> {
  const r = spawnSync('setpriv', [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', process.execPath, '-e', script, ...args], {
    encoding: 'utf8',
    cwd: '/',
  });
  if (r.status !== 0) throw new Error(`probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string>;
}

/** Tries to list, read and write the home and to reach serve's socket and hook lane; each answer is an error code or "ok". */
const PROBE = `
const fs = require('node:fs'), net = require('node:net'), path = require('node:path');
const [home, port] = process.argv.slice(1);
const tryIt = (f) => { try { f(); return 'ok'; } catch (e) { return e.code || String(e); } };
const out = {
  list: tryIt(() => fs.readdirSync(home)),
  read_config: tryIt(() => fs.readFileSync(path.join(home, 'config.json'))),
  read_wal: tryIt(() => fs.readdirSync(path.join(home, 'db', 'pg_wal'))),
  read_secret: tryIt(() => fs.readFileSync(path.join(home, 'run', 'serve.secret'))),
  read_hook_port: tryIt(() => fs.readFileSync(path.join(home, 'run', 'hook-port'))),
  write: tryIt(() => fs.writeFileSync(path.join(home, 'planted'), 'x')),
};
const socket = net.connect({ path: path.join(home, 'run', 'serve.sock') });
socket.on('connect', () => { out.socket = 'ok'; socket.destroy(); hook(); });
socket.on('error', (e) => { out.socket = e.code; hook(); });
function hook() {
  const c = net.connect({ host: '127.0.0.1', port: Number(port) });
  let answer = '';
  c.on('data', (d) => { answer += d; if (answer.includes('\\n')) c.write(JSON.stringify({ secret: 'guessed', event: 'user-prompt', argv: [], env: {}, stdin: '{}' }) + '\\n'); });
  c.on('close', () => { out.hook_answer = answer.split('\\n').slice(1).join('\\n').trim(); console.log(JSON.stringify(out)); });
  c.on('error', () => {});
}
`;

describe.skipIf(!isRoot || !hasSetpriv)('another local user', () => {
  const dir = tempDir('bs-multi-');
  const created = join(dir.path, 'created');
  const existing = join(dir.path, 'existing');
  let serve: ServeProcess;
  let firstRun: ReturnType<typeof runCli>;

  beforeAll(async () => {
    // The parent is open, as a user's home folder usually is: only the brain's home may be closed.
    chmodSync(dir.path, 0o755);
    // An old home: world-readable folder and database files (as PGlite made them).
    mkdirSync(join(existing, 'db', 'pg_wal'), { recursive: true, mode: 0o755 });
    chmodSync(existing, 0o755);
    writeFileSync(join(existing, 'config.json'), '{}', { mode: 0o644 });
    writeFileSync(join(existing, 'db', 'pg_wal', 'stale'), 'private text', { mode: 0o666 });
    chmodSync(join(existing, 'db', 'pg_wal', 'stale'), 0o666);
    firstRun = runCli(['--home', existing, 'page', 'put', 'notes/vault'], { input: '---\nvisibility: private\n---\nsecret\n' });
    runCli(['--home', created, 'page', 'put', 'notes/vault'], { input: '---\nvisibility: private\n---\nsecret\n' });
    serve = await startServe(created);
  });

  afterAll(async () => {
    await serve?.stop();
    dir.cleanup();
  });

  it('a home that others could open is closed, everything in it, and the user is told once', () => {
    expect(firstRun.code).toBe(0);
    expect(firstRun.stderr.match(/was open to other users \(mode 0755\); it is now 0700/g)).toHaveLength(1);
    expect(modeOf(existing)).toBe(0o700);
    expect(openToOthers(existing)).toEqual([]);
    expect(runCli(['--home', existing, 'page', 'list']).stderr).toBe('');
  });

  it('a home brainstream creates is owner-only, database files included, while serve runs', () => {
    expect(modeOf(created)).toBe(0o700);
    // Serve's own files and everything the database wrote so far: nothing is open to others
    // but the folder is closed anyway, which is what keeps the database's later files private.
    expect(openToOthers(join(created, 'run'))).toEqual([]);
    expect(runCli(['--home', created, 'doctor']).stdout).toMatch(/^ok {2}home_permissions/m);
  });

  it('the other uid can neither read nor write either home, nor reach serve', () => {
    const port = readFileSync(homePaths(created).hookPort, 'utf8').split(' ')[0]!;
    for (const home of [created, existing]) {
      const seen = asOtherUser(PROBE, [home, port]);
      expect(seen).toMatchObject({ list: 'EACCES', read_config: 'EACCES', read_wal: 'EACCES', read_secret: 'EACCES', read_hook_port: 'EACCES', write: 'EACCES', socket: 'EACCES' });
      // The hook lane answers nothing without serve's secret.
      expect(seen.hook_answer).not.toContain('secret');
    }
    expect(existsSync(join(created, 'planted'))).toBe(false);
  });

  it('the other uid running brainstream on the home gets nothing', () => {
    const r = spawnSync('setpriv', [`--reuid=${OTHER_UID}`, `--regid=${OTHER_UID}`, '--clear-groups', process.execPath, CLI, '--home', created, 'page', 'list'], {
      encoding: 'utf8',
      cwd: '/',
    });
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^brainstream: [a-z_]+: /);
  });

  it('a home another user owns and leaves open is refused, not used', () => {
    const theirs = join(dir.path, 'theirs');
    mkdirSync(theirs, { mode: 0o777 });
    chmodSync(theirs, 0o777);
    chownSync(theirs, OTHER_UID, OTHER_UID);
    const r = runCli(['--home', theirs, 'page', 'list']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^brainstream: home_insecure: other users can get into .*theirs \(mode 0777, owner uid 65534\)/);
    expect(existsSync(join(theirs, 'db'))).toBe(false);
    expect(modeOf(theirs)).toBe(0o777);
  });
});
