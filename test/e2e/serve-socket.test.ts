import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain } from '../../src/brain/brain.js';
import { homePaths } from '../../src/home.js';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { rawExchange, startServe, writePages, type ServeProcess } from './serve-harness.js';

const folder = tempDir('bs-sock-src-');
const home = tempDir('bs-sock-home-');
let serve: ServeProcess;
let secret: string;

const line = (o: unknown): string => `${JSON.stringify(o)}\n`;
const turn = (sessionId: string) => ({
  v: 1,
  kind: 'turn_context',
  secret,
  window: [{ role: 'user', text: 'what do you think about Alice Example?' }],
  prior_context: '',
  session_id: sessionId,
  channel: 'codex',
});

beforeAll(async () => {
  writePages(folder.path, { 'people/alice-example': '---\ntitle: Alice Example\n---\nAlice Example is an early founder.\n' });
  expect(runCli(['--home', home.path, 'import', folder.path]).code).toBe(0);
  serve = await startServe(home.path);
  secret = readFileSync(homePaths(home.path).secret, 'utf8').trim();
});

afterAll(async () => {
  if (serve.child.exitCode === null) await serve.stop();
  folder.cleanup();
  home.cleanup();
});

describe('the serve socket', () => {
  it('is owner-only: socket and secret 0600 in a 0700 run folder', () => {
    const mode = (p: string): number => statSync(p).mode & 0o777;
    expect(mode(homePaths(home.path).run)).toBe(0o700);
    expect(mode(homePaths(home.path).socket)).toBe(0o600);
    expect(mode(homePaths(home.path).secret)).toBe(0o600);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a wrong or missing secret before looking at anything else', async () => {
    for (const bad of [{ ...turn('x'), secret: 'nope' }, { v: 1, kind: 'ping' }, { v: 2, kind: 'bogus', secret: secret.slice(1) }]) {
      const answer = await rawExchange(home.path, line(bad));
      expect(JSON.parse(answer)).toEqual({ v: 1, ok: false, error: 'unauthorized', message: 'wrong or missing secret' });
    }
  });

  it('refuses a request line over 256 KB, and malformed or unknown requests', async () => {
    const big = line({ ...turn('big'), prior_context: 'x'.repeat(300 * 1024) });
    expect(JSON.parse(await rawExchange(home.path, big, { end: false }))).toMatchObject({ ok: false, error: 'request_too_large' });
    expect(JSON.parse(await rawExchange(home.path, 'not json\n'))).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(JSON.parse(await rawExchange(home.path, line({ v: 1, kind: 'launch', secret })))).toMatchObject({ ok: false, error: 'unknown_kind' });
    expect(JSON.parse(await rawExchange(home.path, line({ v: 1, kind: 'turn_context', secret, window: 'no' })))).toMatchObject({
      ok: false,
      error: 'invalid_request',
    });
  });

  it('sends progress frames of a long command only to a client whose stderr is a terminal', async () => {
    const request = (stderrTty: boolean) => line({ v: 1, kind: 'command', secret, argv: ['--home', home.path, 'import', folder.path], cwd: folder.path, stream: true, stderr_tty: stderrTty });
    const frames = async (stderrTty: boolean) => (await rawExchange(home.path, request(stderrTty))).trim().split('\n').map((l) => JSON.parse(l));
    const onTerminal = await frames(true);
    expect(onTerminal).toContainEqual({ v: 1, progress: { label: 'import', done: 1, total: 1 } });
    expect(onTerminal).toContainEqual({ v: 1, progress: null });
    expect(onTerminal.at(-1)).toMatchObject({ ok: true, exitCode: 0 });
    const onPipe = await frames(false);
    expect(onPipe.filter((f) => 'progress' in f)).toEqual([]);
    expect(onPipe.at(-1)).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('runs no command on a brain other than its own: another --home, or none (the default home), is refused and untouched', async () => {
    const other = tempDir('bs-other-home-');
    try {
      for (const argv of [['--home', other.path, 'import', folder.path], ['import', folder.path]]) {
        const answer = JSON.parse((await rawExchange(home.path, line({ v: 1, kind: 'command', secret, argv, env: { HOME: other.path }, cwd: folder.path }))).trim());
        expect(answer).toMatchObject({ ok: false, error: 'invalid_request' });
        expect(answer.message).toContain(`this serve owns ${home.path}`);
      }
      expect(readdirSync(other.path)).toEqual([]);
    } finally {
      other.cleanup();
    }
  });

  it('handles one request per connection: trailing bytes are never a second request', async () => {
    const answer = await rawExchange(home.path, line(turn('once')) + line(turn('once')) + line(turn('twice')));
    const lines = answer.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ ok: true, pointers: [{ slug: 'people/alice-example' }] });
  });

  // Acting as another user needs root.
  it.runIf(process.getuid?.() === 0)('is unreachable for another user', () => {
    const probe = spawnSync(process.execPath, ['-e', `require('net').connect(${JSON.stringify(homePaths(home.path).socket)}).on('error', e => { console.log(e.code); process.exit(0) }).on('connect', () => { console.log('connected'); process.exit(0) })`], {
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
    });
    expect(probe.stdout.trim()).toBe('EACCES');
  });

  it('shuts down on SIGTERM leaving no socket, secret or lock; logged each delivery once', async () => {
    expect(await serve.stop()).toBe(0);
    expect(serve.stderr()).toContain('[serve] stopped');
    for (const f of [homePaths(home.path).socket, homePaths(home.path).secret, homePaths(home.path).lock]) expect(existsSync(f)).toBe(false);
    const brain = await openBrain(home.path);
    try {
      const rows = await brain.db.query<{ session_id: string; n: number }>(
        `SELECT session_id, count(*)::int AS n FROM context_volunteer_events WHERE session_id IN ('once', 'twice') GROUP BY session_id`,
      );
      expect(rows).toEqual([{ session_id: 'once', n: 1 }]);
    } finally {
      await brain.close();
    }
  });
});

describe('without serve', () => {
  it('refuses a second direct writer cleanly: brain_locked, exit 1, naming the holder and serve', async () => {
    const lockedHome = tempDir('bs-sock-locked-');
    // This process holds the brain for as long as the second writer runs (no race against the clock).
    const holder = await openBrain(lockedHome.path);
    try {
      const second = await runCliAsync(['--home', lockedHome.path, 'page', 'put', 'notes/late'], { input: '# Late\n' });
      expect(second.code).toBe(1);
      expect(second.stdout).toBe('');
      expect(second.stderr).toBe(
        `brainstream: brain_locked: the brain is open in another process (pid ${process.pid}); stop it, or start \`brainstream serve\` so commands share it\n`,
      );
    } finally {
      await holder.close();
      lockedHome.cleanup();
    }
  });
});
