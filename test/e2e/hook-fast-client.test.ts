// The fast hook client (bash, registered by bootstrap): the same answers as `brainstream hook`,
// computed inside a real serve over its loopback lane, and the Node hook itself whenever that
// lane is not there. Real Claude Code / Codex payloads, a real serve, the built client.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { additionalContext, fixtureJson, heartbeats, importPages, installTranscript, runHook, startServe, type ServeChild } from './hook-serve-support.js';

const CLIENT = join(CLI, '..', '..', 'hooks', 'fast-hook.sh');
const tmp = tempDir('bs-fast-hook-');
const home = join(tmp.path, 'brain');
const userHome = join(tmp.path, 'user');
// The one hook deadline raised, as for a slow machine: what is compared here must not depend on speed.
const env = { HOME: userHome, BRAINSTREAM_HOOK_DEADLINE_MS: '600000' };
let serve: ServeChild;
let transcript: string;

const payload = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ ...fixtureJson('user-prompt-submit.json'), transcript_path: transcript, ...over });

/** The client as bootstrap registers it; `node` may be a path that does not exist, to prove serve did the work. */
function runFast(event: string, body: unknown, extraEnv: NodeJS.ProcessEnv = {}, options: { node?: string; harness?: string } = {}) {
  const argv = [CLIENT, options.node ?? process.execPath, CLI, '--home', home, 'hook', event, '--harness', options.harness ?? 'claude-code'];
  const r = spawnSync('/bin/bash', argv, { input: typeof body === 'string' ? body : JSON.stringify(body), env: { ...process.env, BRAINSTREAM_SOURCE: '', ...env, ...extraEnv }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const NO_NODE = '/nonexistent/node';

beforeAll(async () => {
  importPages(home, join(tmp.path, 'pages'), {
    'people/alice-example': '---\ntitle: Alice Example\ntype: person\n---\nAlice is an early founder.\n',
    'people/bob-sample': '---\ntitle: Bob Sample\ntype: person\n---\nBob runs the widget deal.\n',
    'people/carol-xu': '---\ntitle: Carol Xu\ntype: person\n---\nCarol keeps the cap table.\n',
    'companies/acme': '---\ntitle: Acme\nalways_load: true\n---\nAcme builds widgets.\n',
  });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ 'memory.core.enabled': true }));
  mkdirSync(join(tmp.path, 'project'), { recursive: true });
  writeFileSync(join(tmp.path, 'project', 'MEMORY.md'), '# Memory\n\n## Standing rules\n- never push to main\n');
  transcript = installTranscript(userHome);
  serve = await startServe(home);
});

afterAll(async () => {
  await serve?.stop();
  tmp.cleanup();
});

describe('the fast hook client with serve running', () => {
  it('bootstrap registers it, and the registered command answers like `brainstream hook user-prompt`', () => {
    const settings = join(userHome, '.claude', 'settings.json');
    expect(runCli(['--home', home, 'bootstrap'], { env }).code).toBe(0);
    const registered = (JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
    const command = registered.UserPromptSubmit!.at(-1)!.hooks[0]!.command;
    expect(command).toMatch(/^\/\S*bash \S*brainstream-launch --fast --home \S+ hook user-prompt --harness claude-code$/);
    // Two sessions: within one, a page is pushed once.
    const viaCommand = spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(payload({ session_id: 'registered' })), env: { ...process.env, ...env, BRAINSTREAM_SOURCE: '' }, encoding: 'utf8' });
    const viaNode = runHook(home, 'user-prompt', payload({ session_id: 'registered-node' }), env);
    expect(viaCommand.status).toBe(0);
    expect(viaCommand.stdout).toBe(viaNode.stdout);
    expect(additionalContext(viaCommand.stdout)).toContain('`people/bob-sample`');
    expect(runCli(['--home', home, 'bootstrap', '--uninstall'], { env }).code).toBe(0);
  });

  it('runs inside serve (no Node started): deduped block, heartbeat written by serve', () => {
    const r = runFast('user-prompt', payload(), {}, { node: NO_NODE });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const text = additionalContext(r.stdout);
    expect(text).not.toContain('people/alice-example');
    expect(text).toContain('`people/carol-xu`');
    expect(heartbeats(home).at(-1)).toMatchObject({ event: 'user-prompt', outcome: 'ok', turns: 5 });
  });

  it('sees the caller\'s environment: CODEX_HOME for a Codex rollout', () => {
    const codexHome = join(tmp.path, 'codex');
    const dir = join(codexHome, 'sessions', '2026', '11', '29');
    const rollout = join(dir, 'rollout-2026-11-29T10-00-00-0199.jsonl');
    mkdirSync(dir, { recursive: true });
    const item = (payload: Record<string, unknown>): string => JSON.stringify({ timestamp: '2026-11-29T10:00:00.000Z', type: 'response_item', payload });
    writeFileSync(rollout, `${item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Who runs the widget deal?' }] })}\n${item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Bob Sample runs it.' }] })}\n`);
    const codexPayload = { session_id: '0199', turn_id: 't2', transcript_path: rollout, cwd: '/w', hook_event_name: 'UserPromptSubmit', model: 'gpt-5-codex', permission_mode: 'default', prompt: 'and Alice Example?' };
    const fast = runFast('user-prompt', codexPayload, { CODEX_HOME: codexHome }, { node: NO_NODE, harness: 'codex' });
    const node = runHook(home, 'user-prompt', { ...codexPayload, session_id: '0199-node' }, { ...env, CODEX_HOME: codexHome }, ['--harness', 'codex']);
    expect(additionalContext(fast.stdout)).toContain('people/alice-example');
    expect(fast.stdout).toBe(node.stdout);
  });

  it('session-start delivers the same core block and MEMORY.md digest', () => {
    const body = { ...fixtureJson('session-start.json'), cwd: join(tmp.path, 'project') };
    const fast = runFast('session-start', body, {}, { node: NO_NODE });
    expect(fast.code).toBe(0);
    expect(fast.stdout).toContain('Acme builds widgets.');
    expect(fast.stdout).toContain('never push to main');
    expect(fast.stdout).toBe(runHook(home, 'session-start', body, env).stdout);
  });

  it('the kill switch exits at once: no output, no heartbeat', () => {
    const before = heartbeats(home).length;
    expect(runFast('user-prompt', payload(), { BRAINSTREAM_HOOKS: '0' }, { node: NO_NODE })).toMatchObject({ code: 0, stdout: '' });
    expect(heartbeats(home)).toHaveLength(before);
  });

  it('answers even when the harness keeps stdin open', async () => {
    const child = spawn('/bin/bash', [CLIENT, NO_NODE, CLI, '--home', home, 'hook', 'user-prompt', '--harness', 'claude-code'], { env: { ...process.env, ...env, BRAINSTREAM_SOURCE: '' } });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stdin.write(JSON.stringify(payload({ transcript_path: undefined, session_id: 'stdin-open' })));
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    child.stdin.destroy();
    expect(code).toBe(0);
    expect(additionalContext(stdout)).toContain('people/alice-example');
  });

  it('the lane refuses a wrong secret: the connection closes with no answer and no hook runs', async () => {
    const [port] = readFileSync(join(home, 'run', 'hook-port'), 'utf8').trim().split(' ');
    const before = heartbeats(home).length;
    const answer = await new Promise<string>((done) => {
      const s = connect(Number(port), '127.0.0.1');
      let data = '';
      s.on('data', (d) => (data += d.toString()));
      s.on('error', () => {});
      s.on('close', () => done(data));
      s.write(`secret=${'f'.repeat(64)}\nevent=user-prompt\nharness=claude-code\n\n${JSON.stringify(payload())}\0`);
    });
    // Only the greeting: nothing of a hook run.
    expect(answer).toMatch(/^brainstream-hook [0-9a-f]{32}\n$/);
    expect(heartbeats(home)).toHaveLength(before);
  });
});

describe('the fast hook client without serve', () => {
  it('falls back to the Node hook, which degrades to no_serve (no page snapshot for the cold path)', async () => {
    await serve.stop();
    rmSync(join(home, 'run', 'page-snapshot.bin'), { force: true });
    const r = runFast('user-prompt', payload());
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(heartbeats(home).at(-1)).toMatchObject({ outcome: 'degraded', reason: 'no_serve', turns: 5 });
  });

  it('a stale port file now held by another program: nothing is sent to it, the Node hook runs', async () => {
    const received: string[] = [];
    const foreign = createServer((s) => {
      s.on('data', (d) => received.push(d.toString()));
      s.write('hello from something else\n');
    });
    await new Promise<void>((done) => foreign.listen(0, '127.0.0.1', done));
    const { port } = foreign.address() as AddressInfo;
    writeFileSync(join(home, 'run', 'hook-port'), `${port} ${'a'.repeat(32)}\n`, { mode: 0o600 });
    writeFileSync(join(home, 'run', 'serve.secret'), `${'b'.repeat(64)}\n`, { mode: 0o600 });
    try {
      const r = runFast('user-prompt', payload());
      expect(r.code).toBe(0);
      expect(heartbeats(home).at(-1)).toMatchObject({ outcome: 'degraded', reason: 'no_serve' });
      expect(received.join('')).toBe('');
    } finally {
      await new Promise<void>((done) => foreign.close(() => done()));
    }
  });
});
