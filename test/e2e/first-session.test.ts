// A new user's first session, as the harness runs it: bootstrap, then the registered hook
// commands with real payloads and no serve started by hand; serve killed -9 between prompts;
// replay over the hook sessions; every pushed page opened through the registered MCP server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain } from '../../src/brain/brain.js';
import { deterministicId, type Envelope } from '../../src/domain/events.js';
import { EmbeddedReplaySource } from '../../src/replay/embedded-turn-source.js';
import { runReplay } from '../../src/replay/replay.js';
import { pingServe } from '../../src/serve-client/autostart.js';
import { runCli, runCliAsync, tempDir } from '../support/cli.js';
import { fixtureJson, heartbeats } from './hook-serve-support.js';

const tmp = tempDir('bs-first-session-');
const home = join(tmp.path, 'brain');
const userHome = join(tmp.path, 'user');
// The harness's environment: hooks may start serve. The deadline is raised because these tests
// check what is delivered, not how fast (a loaded machine may be many times slower).
const harnessEnv = { HOME: userHome, BRAINSTREAM_AUTOSTART: '1', BRAINSTREAM_HOOK_DEADLINE_MS: '600000', BRAINSTREAM_SOURCE: '' };
const quiet = { HOME: userHome, BRAINSTREAM_AUTOSTART: '0' };
const serves = new Set<number>();

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The serve a hook left starting, once it answers. */
async function runningServe(): Promise<number> {
  for (;;) {
    const ping = await pingServe(home);
    if (ping) {
      serves.add(ping.pid);
      return ping.pid;
    }
    await sleep(100);
  }
}

async function stopServe(signal: NodeJS.Signals): Promise<void> {
  const pid = await runningServe();
  process.kill(pid, signal);
  while (isAlive(pid)) await sleep(50);
}

afterAll(async () => {
  for (const pid of serves) if (isAlive(pid)) process.kill(pid, 'SIGTERM');
  for (const pid of serves) while (isAlive(pid)) await sleep(50);
  tmp.cleanup();
});

/** The command bootstrap registered for a Claude Code hook event. */
function registered(event: string): string {
  const settings = JSON.parse(readFileSync(join(userHome, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
  return settings.hooks[event]![0]!.hooks[0]!.command;
}

/** Runs a registered hook command as Claude Code does: through a shell, the payload on stdin. */
function harnessRun(command: string, payload: unknown): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('/bin/bash', ['-c', command], { env: { ...process.env, ...harnessEnv } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(JSON.stringify(payload));
  });
}

/** A prompt of a session whose transcript file does not exist yet. */
const promptPayload = (session: string, prompt: string): Record<string, unknown> => ({
  ...fixtureJson('user-prompt-submit.json'),
  session_id: session,
  transcript_path: join(userHome, '.claude', 'projects', '-home-user-projects-acme', `${session}.jsonl`),
  cwd: tmp.path,
  prompt,
});

async function prompt(session: string, text: string): Promise<string[]> {
  const r = await harnessRun(registered('UserPromptSubmit'), promptPayload(session, text));
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
  return [...out.hookSpecificOutput.additionalContext.matchAll(/→ `([^`]+)`/g)].map((m) => m[1]!);
}

const PAGES: Record<string, string> = {
  'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob runs procurement at Widget Co.\n',
  'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice is our lawyer.\n',
  'people/carol-xu': '---\ntitle: Carol Xu\ntype: person\nvisibility: private\n---\nCarol is a private contact.\n',
  'prefs/habits': '---\ntitle: Habits\nalways_load: true\n---\nThe owner prefers short answers.\n',
};

/** What each prompt delivered, by session, in order. */
const delivered: { session: string; slugs: string[] }[] = [];

beforeAll(() => {
  mkdirSync(userHome, { recursive: true });
  const boot = runCli(['--home', home, 'bootstrap', '--harness', 'claude-code'], { env: quiet });
  expect(boot.code, boot.stderr).toBe(0);
  const folder = join(tmp.path, 'pages');
  for (const [slug, text] of Object.entries(PAGES)) {
    mkdirSync(join(folder, slug, '..'), { recursive: true });
    writeFileSync(join(folder, `${slug}.md`), text);
  }
  for (const args of [['config', 'set', 'memory.core.enabled', 'true'], ['import', folder]]) {
    const r = runCli(['--home', home, ...args], { env: quiet });
    expect(r.code, r.stderr).toBe(0);
  }
});

describe('the first session after bootstrap, no serve started by hand', () => {
  it('session start prints the core block first', async () => {
    expect(await pingServe(home)).toBeNull();
    const r = await harnessRun(registered('SessionStart'), { ...fixtureJson('session-start.json'), session_id: 'first', cwd: tmp.path });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('# Core memory')).toBe(true);
    expect(r.stdout).toContain('The owner prefers short answers.');
  });

  it('the first prompt, its transcript not written yet, gets the pages it names; a private page never', async () => {
    const slugs = await prompt('first', 'Did Bob Sample reply about the Widget deal? Also loop in Alice Example and Carol Xu.');
    expect(slugs).toEqual(['people/bob-sample', 'people/alice-example']);
    delivered.push({ session: 'first', slugs });
  });

  it('after kill -9 of serve the next prompt is delivered again, on the cold path', async () => {
    await stopServe('SIGKILL');
    const slugs = await prompt('first', 'What did Alice Example and Bob Sample say?');
    // Decided without the session's earlier turns (their log was not open): named pages come again.
    expect(slugs).toEqual(['people/alice-example', 'people/bob-sample']);
    delivered.push({ session: 'first', slugs });
    expect(heartbeats(home).at(-1)).toMatchObject({ event: 'user-prompt', outcome: 'ok', reason: 'cold' });
    // The hook left serve starting: the following prompt goes through it.
    await runningServe();
    const next = await prompt('second', 'Ping Bob Sample about the deal.');
    expect(next).toEqual(['people/bob-sample']);
    delivered.push({ session: 'second', slugs: next });
  });

  it('replay covers the hook sessions; at the live gate it reproduces every delivery exactly', async () => {
    await stopServe('SIGTERM');
    const r = await runCliAsync(['--home', home, 'replay', '--json'], { env: quiet });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { turns: number; sessions: number; thresholds: { min_confidence: number; volunteered: number }[] };
    expect(report).toMatchObject({ turns: 3, sessions: 2 });
    expect(report.thresholds.find((t) => t.min_confidence === 0.7)?.volunteered).toBe(5);

    const brain = await openBrain(home);
    try {
      const turns = (await brain.log.read(1, { topics: ['turns'], limit: 1000 })).events.map((e) => e.event as Envelope<'turn.appended'>);
      expect(turns.map((t) => [t.data.session_id, t.data.turn, t.data.channel])).toEqual([
        ['first', 1, 'claude-code'],
        ['first', 2, 'claude-code'],
        ['second', 1, 'claude-code'],
      ]);
      const live = (await brain.log.read(1, { topics: ['volunteered'], limit: 1000 })).events.map((e) => e.event as Envelope<'page.volunteered'>);
      const bySessionTurn = (session: string, turn: number): string[] => live.filter((e) => e.data.session_id === session && e.data.turn === turn).map((e) => e.data.slug);
      expect([bySessionTurn('first', 1), bySessionTurn('first', 2), bySessionTurn('second', 1)]).toEqual(delivered.map((d) => d.slugs));
      const run = await runReplay(await EmbeddedReplaySource.open(brain.db), {
        gates: [0.7], windowTurns: 4, lexicalArms: true, gazetteer: true, remote: false, since: null, arms: null, workers: 0, collect: [0],
      });
      const replayed = run.volunteered.map((v) => deterministicId('vol', v.channel, v.session, v.turn, v.source_id, v.slug)).sort();
      expect(replayed).toEqual(live.map((e) => e.id).sort());
    } finally {
      await brain.close();
    }
  });

  it('every pushed page opens through the MCP server bootstrap registered, with a real MCP client', async () => {
    const config = JSON.parse(readFileSync(join(userHome, '.claude.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const server = config.mcpServers.brainstream!;
    const transport = new StdioClientTransport({ command: server.command, args: server.args, env: { ...(process.env as Record<string, string>), ...quiet }, stderr: 'ignore' });
    const client = new Client({ name: 'first-session', version: '1.0.0' });
    await client.connect(transport);
    try {
      const pushed = new Set(delivered.flatMap((d) => d.slugs));
      for (const slug of pushed) {
        const r = (await client.callTool({ name: 'get_page', arguments: { slug } })) as { isError?: boolean; content: { text: string }[] };
        expect(r.isError, slug).not.toBe(true);
        expect(JSON.parse(r.content[0]!.text)).toMatchObject({ slug });
      }
      const hidden = (await client.callTool({ name: 'get_page', arguments: { slug: 'people/carol-xu' } })) as { isError?: boolean };
      expect(hidden.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
