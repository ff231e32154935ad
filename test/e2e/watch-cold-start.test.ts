// The first `watch`, with no serve running: it is ready at once and decides its first turns from
// the page snapshot while the serve it started opens the brain, then hands the rest of stdin to
// serve as the same session. What it prints, and what the log holds afterwards, equal a watch run
// with the brain open — wherever the hand-over fell.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldPaths, snapshotCurrent } from '../../src/cold/cold-files.js';
import { pingServe } from '../../src/serve-client/autostart.js';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { eventually } from '../support/eventually.js';
import { homeSql } from '../support/home-sql.js';
import { stopServeOf } from '../support/stop-serve.js';
import { writePages } from './serve-harness.js';

const tmp = tempDir('bs-watch-cold-');
const home = join(tmp.path, 'brain');
const off = { BRAINSTREAM_AUTOSTART: '0' };
const on = { BRAINSTREAM_AUTOSTART: '1' };

const LINES = [
  'user: I met Alice Example at the offsite',
  'assistant: Noted, anything about Acme Corp?',
  'user: Bob Sample runs sales at Acme Corp',
  'assistant: I will look at the notes.',
  'user: and the Vault Plans, quietly',
  'assistant: ok',
  'user: Alice Example wants the Cyberpunk 2077 review',
  'user: back to Cyberpunk 2077 then',
];
const half = 4;

type Line = { turn: number; slug: string; confidence: number; arm: string; session_id: string };
const parse = (stdout: string): Line[] => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
const withoutSession = (lines: Line[]) => lines.map(({ session_id: _, ...rest }) => rest);

/** `watch --json` with serve starting itself; `feed` writes its stdin. */
function coldWatch(args: string[], feed: (stdin: NodeJS.WritableStream, stdout: () => string) => Promise<void>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, '--home', home, ...args, 'watch', '--json'], { env: { ...process.env, BRAINSTREAM_SOURCE: '', ...on } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number>((done) => child.on('close', (code) => done(code ?? -1)));
  return feed(child.stdin, () => stdout).then(async () => ({ code: await closed, stdout, stderr }));
}

let reference: Line[];
let remoteReference: Line[];

beforeAll(() => {
  const folder = join(tmp.path, 'pages');
  const pages: Record<string, string> = {
    'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice works at Acme.\n',
    'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob runs sales.\n',
    'companies/acme': '---\ntitle: Acme Corp\n---\nA company.\n',
    'games/cyberpunk-2077': '---\ntitle: Cyberpunk 2077\n---\nA game.\n',
    'notes/vault': '---\ntitle: Vault Plans\nvisibility: private\n---\nsecret\n',
  };
  writePages(folder, pages);
  expect(runCli(['--home', home, 'import', folder], { env: off }).code).toBe(0);
  expect(snapshotCurrent(home)).toBe(true);
  const input = `${LINES.join('\n')}\n`;
  const owner = runCli(['--home', home, 'watch', '--json'], { input, env: off });
  const remote = runCli(['--home', home, '--as', 'remote', 'watch', '--json'], { input, env: off });
  expect(owner.code, owner.stderr).toBe(0);
  expect(remote.code, remote.stderr).toBe(0);
  reference = parse(owner.stdout);
  remoteReference = parse(remote.stdout);
  expect(reference.map((l) => l.slug)).toContain('notes/vault');
  expect(remoteReference.map((l) => l.slug)).not.toContain('notes/vault');
});

afterAll(async () => {
  await stopServeOf(home);
  tmp.cleanup();
});

/** The session's turns and rows as the log holds them (read with no serve running). */
async function logged(sessionId: string): Promise<{ turns: number[]; rows: { turn: number; slug: string }[] }> {
  await stopServeOf(home);
  const turns = await homeSql<{ turn: number }>(home, `SELECT (data->>'turn')::int AS turn FROM events WHERE type = 'turn.appended' AND data->>'session_id' = '${sessionId}' ORDER BY seq`);
  const rows = await homeSql<{ turn: number; slug: string }>(home, `SELECT turn, slug FROM context_volunteer_events WHERE session_id = '${sessionId}' ORDER BY turn, slug`);
  return { turns: turns.map((t) => t.turn), rows };
}

const sorted = (rows: { turn: number; slug: string }[]) => [...rows].sort((a, b) => a.turn - b.turn || (a.slug < b.slug ? -1 : 1));

describe('the first watch, before serve answers', () => {
  it('part of a session before serve is up, the rest after: printed and logged as one open-brain run', async () => {
    await stopServeOf(home);
    const firstHalf = reference.filter((l) => l.turn <= half).length;
    const r = await coldWatch([], async (stdin, stdout) => {
      stdin.write(`${LINES.slice(0, half).join('\n')}\n`);
      await eventually(() => (parse(stdout()).length >= firstHalf ? true : undefined));
      await eventually(async () => ((await pingServe(home)) ? true : undefined));
      stdin.end(`${LINES.slice(half).join('\n')}\n`);
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/\[watch\] session \S+ ready/g)).toHaveLength(1);
    const printed = parse(r.stdout);
    expect(withoutSession(printed)).toEqual(withoutSession(reference));
    const sessionId = printed[0]!.session_id;
    expect(new Set(printed.map((l) => l.session_id))).toEqual(new Set([sessionId]));
    // Serve took the spooled turns before the rest of the session ran.
    expect(existsSync(coldPaths(home).spool) ? readdirSync(coldPaths(home).spool) : []).toEqual([]);
    const log = await logged(sessionId);
    expect(log.turns).toEqual(LINES.map((_, i) => i + 1));
    expect(log.rows).toEqual(sorted(printed.map(({ turn, slug }) => ({ turn, slug }))));
  });

  it('a whole transcript at once, as a remote caller: the private page never shows, and the log matches', async () => {
    await stopServeOf(home);
    const r = await coldWatch(['--as', 'remote'], async (stdin) => {
      stdin.end(`${LINES.join('\n')}\n`);
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/\[watch\] session \S+ ready/g)).toHaveLength(1);
    const printed = parse(r.stdout);
    expect(withoutSession(printed)).toEqual(withoutSession(remoteReference));
    const log = await logged(printed[0]!.session_id);
    expect(log.turns).toEqual(LINES.map((_, i) => i + 1));
    expect(log.rows).toEqual(sorted(printed.map(({ turn, slug }) => ({ turn, slug }))));
  });
});
