// Core delivery and the save-before-compaction notice through the real hook commands:
// remote-edit notices after the core block, the per-session switches, the session source,
// the MEMORY.md size rule, and the notice when the transcript cannot be read. Real Claude Code payloads, the built CLI, a real serve where it matters.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { additionalContext, fixtureJson, heartbeats, importPages, installTranscript, runHook, startServe, type ServeChild } from './hook-serve-support.js';

const tmp = tempDir('bs-core-delivery-');
const home = join(tmp.path, 'brain');
const project = join(tmp.path, 'project');
const userHome = join(tmp.path, 'user');
// What a hook prints, not how fast: the self-deadline is raised for a busy machine.
const env = { HOME: userHome, BRAINSTREAM_HOOK_DEADLINE_MS: '600000' };
const CLIENT = join(CLI, '..', '..', 'hooks', 'fast-hook.sh');

const PROFILE = '## Profile (core/profile)\n\nI prefer terse answers.';
const WORK = '## Work rules (work:rules)\n\nShip on Fridays only.';
const CORE = `# Core memory\n\n${PROFILE}`;
const NOTICE =
  'Core page core/profile was edited remotely (revision r2). Review: brainstream core diff --source default core/profile — accept: brainstream core ack --source default core/profile --revision r2';
const DIGEST = 'From MEMORY.md:\n## Open commitments\n- send the Q3 report';
const EMPTY_REVISION = 'e3b0c44298fc1c14';
const NOTICE_TEXT = /^Context is ~85% full; compaction is near\. Save anything that must survive it now: one remember call with items/;
const USAGE = { window_tokens: 200_000, used_tokens: 170_000, last_turn_tokens: 1_000 };

const start = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ ...fixtureJson('session-start.json'), cwd: project, ...over });
const prompt = (over: Record<string, unknown>): Record<string, unknown> => ({ ...fixtureJson('user-prompt-submit.json'), ...over });
const setConfig = (config: Record<string, unknown>): void => writeFileSync(join(home, 'config.json'), JSON.stringify(config));
const cli = (args: string[], input = ''): void => {
  const r = runCli(['--home', home, ...args], { input, env });
  if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
};

/** The fast client as bootstrap registers it; NODE does not exist, so only serve can answer. */
function runFast(event: string, body: unknown): { code: number | null; stdout: string } {
  const argv = [CLIENT, '/nonexistent/node', CLI, '--home', home, 'hook', event, '--harness', 'claude-code'];
  const r = spawnSync('/bin/bash', argv, { input: JSON.stringify(body), env: { ...process.env, BRAINSTREAM_SOURCE: '', ...env }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout };
}

beforeAll(() => {
  importPages(home, join(tmp.path, 'pages'), {
    'core/profile': '---\ntitle: Profile\nalways_load: true\ncore_priority: 10\n---\nI prefer short answers.\n',
  });
  const work = join(tmp.path, 'work-pages');
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'rules.md'), '---\ntitle: Work rules\nalways_load: true\n---\nShip on Fridays only.\n');
  cli(['import', '--source', 'work', work]);
  setConfig({ 'memory.core.enabled': true });
  // A remote caller rewrites the core page: the owner gets a notice naming revision r2.
  cli(['--as', 'remote', 'page', 'put', 'core/profile'], '---\ntitle: Profile\nalways_load: true\ncore_priority: 10\n---\nI prefer terse answers.\n');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'MEMORY.md'), '# Memory\n\n## Open commitments\n- send the Q3 report\n\n## Notes\nnot in the digest\n');
  installTranscript(userHome);
});

afterAll(() => tmp.cleanup());

describe('session start: remote-edit notices and the per-session switches', () => {
  let serve: ServeChild | undefined;

  it('prints the pending remote-edit notice after the core block, before the digest (serve)', async () => {
    serve = await startServe(home);
    const r = runHook(home, 'session-start', start(), env);
    expect(r).toMatchObject({ code: 0, stdout: `${CORE}\n\n${NOTICE}\n\n${DIGEST}\n` });
    expect(heartbeats(home).at(-1)).toMatchObject({ event: 'session-start', outcome: 'ok', core_chars: CORE.length });
  });

  it('the fast client, answered inside serve, prints the same', () => {
    expect(runFast('session-start', start()).stdout).toBe(`${CORE}\n\n${NOTICE}\n\n${DIGEST}\n`);
  });

  it('BRAINSTREAM_CORE=0 suppresses core and its notices for that session only', () => {
    expect(runHook(home, 'session-start', start(), { ...env, BRAINSTREAM_CORE: '0' }).stdout).toBe(`${DIGEST}\n`);
    expect(heartbeats(home).at(-1)).toEqual(expect.objectContaining({ outcome: 'ok', core_chars: 0, core_revision: EMPTY_REVISION }));
    // The next session (no switch) gets both again.
    expect(runHook(home, 'session-start', start(), env).stdout).toBe(`${CORE}\n\n${NOTICE}\n\n${DIGEST}\n`);
  });

  it('BRAINSTREAM_SOURCE selects the session source: default core first, then that source', () => {
    const r = runHook(home, 'session-start', start(), { ...env, BRAINSTREAM_SOURCE: 'work' });
    expect(r.stdout).toBe(`${CORE}\n\n${WORK}\n\n${NOTICE}\n\n${DIGEST}\n`);
    expect(heartbeats(home).at(-1)).toMatchObject({ core_chars: `${CORE}\n\n${WORK}`.length });
    // Another source's core never reaches a default session.
    expect(runHook(home, 'session-start', start(), env).stdout).not.toContain('Work rules');
  });

  it('the notice comes from the cache file while serve is down, and from the brain itself without it', async () => {
    await serve!.stop();
    expect(runHook(home, 'session-start', start(), { ...env, BRAINSTREAM_SOURCE: 'work' }).stdout).toBe(`${CORE}\n\n${WORK}\n\n${NOTICE}\n\n${DIGEST}\n`);
    rmSync(join(home, 'run', 'core-cache.json'));
    expect(runHook(home, 'session-start', start(), { ...env, BRAINSTREAM_SOURCE: 'work' }).stdout).toBe(`${CORE}\n\n${WORK}\n\n${NOTICE}\n\n${DIGEST}\n`);
    expect(runHook(home, 'session-start', start(), { ...env, BRAINSTREAM_CORE: '0' }).stdout).toBe(`${DIGEST}\n`);
  });

  it('once acknowledged, the notice is gone', () => {
    cli(['core', 'ack', 'core/profile', '--revision', 'r2']);
    expect(runHook(home, 'session-start', start(), env).stdout).toBe(`${CORE}\n\n${DIGEST}\n`);
  });

  it('core switched on while serve was down is delivered from the cache serve wrote while it was off', async () => {
    setConfig({ 'memory.core.enabled': false });
    const off = await startServe(home);
    await off.stop();
    setConfig({ 'memory.core.enabled': true });
    const r = runHook(home, 'session-start', start(), env);
    expect(r.stdout).toBe(`${CORE}\n\n${DIGEST}\n`);
    expect(heartbeats(home).at(-1)).toMatchObject({ outcome: 'ok', core_chars: CORE.length });
  });
});

describe('session start: the MEMORY.md size rule (skip files over 512 KB)', () => {
  const withMemory = (bytes: number): string => {
    const dir = join(tmp.path, `memory-${bytes}`);
    mkdirSync(dir, { recursive: true });
    const head = '## Standing rules\n- keep it short\n\n## Notes\n';
    writeFileSync(join(dir, 'MEMORY.md'), head + 'x'.repeat(bytes - head.length));
    return dir;
  };

  it('a MEMORY.md of exactly 512 KB is read; one byte more and it is skipped', () => {
    const digest = 'From MEMORY.md:\n## Standing rules\n- keep it short';
    const exact = runHook(home, 'session-start', start({ cwd: withMemory(512 * 1024) }), { ...env, BRAINSTREAM_CORE: '0' });
    expect(exact.stdout).toBe(`${digest}\n`);
    const over = runHook(home, 'session-start', start({ cwd: withMemory(512 * 1024 + 1) }), { ...env, BRAINSTREAM_CORE: '0' });
    expect(over).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('the save-before-compaction notice through `hook user-prompt`', () => {
  const missing = join(userHome, '.claude', 'projects', '-home-user-projects-acme', 'no-such-session.jsonl');

  it('fires alone when the transcript path is outside the harness root, with usage from stdin', () => {
    const r = runHook(home, 'user-prompt', prompt({ session_id: 'outside', transcript_path: '/nonexistent/x.jsonl', context_usage: USAGE }), env);
    expect(r.code).toBe(0);
    expect(additionalContext(r.stdout)).toMatch(NOTICE_TEXT);
    expect(additionalContext(r.stdout)).not.toContain('<!-- retrieved brain context');
    expect(heartbeats(home).at(-1)).toMatchObject({ event: 'user-prompt', outcome: 'ok', reason: 'cold', transcript: 'transcript_outside_root' });
    // Once per compaction segment, whatever the transcript.
    expect(runHook(home, 'user-prompt', prompt({ session_id: 'outside', transcript_path: '/nonexistent/x.jsonl', context_usage: USAGE }), env).stdout).toBe('');
  });

  it('fires alone when the transcript file is missing or not a .jsonl', () => {
    const gone = runHook(home, 'user-prompt', prompt({ session_id: 'missing', transcript_path: missing, context_usage: USAGE }), env);
    expect(additionalContext(gone.stdout)).toMatch(NOTICE_TEXT);
    expect(heartbeats(home).at(-1)).toMatchObject({ outcome: 'ok', reason: 'cold', transcript: 'transcript_missing' });
    const odd = runHook(home, 'user-prompt', prompt({ session_id: 'not-jsonl', transcript_path: '/tmp/x.txt', context_usage: USAGE }), env);
    expect(additionalContext(odd.stdout)).toMatch(NOTICE_TEXT);
    expect(heartbeats(home).at(-1)).toMatchObject({ outcome: 'ok', reason: 'cold', transcript: 'transcript_not_jsonl' });
  });

  it('an unreadable transcript without usage on stdin prints nothing', () => {
    const r = runHook(home, 'user-prompt', prompt({ session_id: 'no-usage', transcript_path: '/nonexistent/x.jsonl' }), env);
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });

  it('not shown when remember is not callable', () => {
    const r = runHook(home, 'user-prompt', prompt({ session_id: 'no-remember', transcript_path: undefined, context_usage: USAGE, remember_callable: false }), env);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    // The same prompt with remember callable fires: only the flag held it back.
    const fires = runHook(home, 'user-prompt', prompt({ session_id: 'no-remember', transcript_path: undefined, context_usage: USAGE }), env);
    expect(additionalContext(fires.stdout)).toMatch(NOTICE_TEXT);
  });

  it('not shown while memory.pressure.enabled is false', () => {
    setConfig({ 'memory.core.enabled': true, 'memory.pressure.enabled': false });
    try {
      const r = runHook(home, 'user-prompt', prompt({ session_id: 'pressure-off', transcript_path: undefined, context_usage: USAGE }), env);
      expect(r).toMatchObject({ code: 0, stdout: '' });
    } finally {
      setConfig({ 'memory.core.enabled': true });
    }
    const r = runHook(home, 'user-prompt', prompt({ session_id: 'pressure-off', transcript_path: undefined, context_usage: USAGE }), env);
    expect(additionalContext(r.stdout)).toMatch(NOTICE_TEXT);
  });

  it('with serve running, an unreadable transcript still gives the notice: Node command and fast client alike', async () => {
    const serve = await startServe(home);
    try {
      const viaNode = runHook(home, 'user-prompt', prompt({ session_id: 'served-node', transcript_path: '/nonexistent/x.jsonl', context_usage: USAGE }), env);
      expect(additionalContext(viaNode.stdout)).toMatch(NOTICE_TEXT);
      const viaServe = runFast('user-prompt', prompt({ session_id: 'served-fast', transcript_path: missing, context_usage: USAGE }));
      expect(viaServe.code).toBe(0);
      expect(additionalContext(viaServe.stdout)).toMatch(NOTICE_TEXT);
      expect(heartbeats(home).at(-1)).toMatchObject({ event: 'user-prompt', transcript: 'transcript_missing' });
    } finally {
      await serve.stop();
    }
  });
});
