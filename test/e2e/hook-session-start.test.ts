import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { fixtureJson, heartbeats, importPages, runHook, startServe } from './hook-serve-support.js';

const tmp = tempDir('bs-hook-start-');
const home = join(tmp.path, 'brain');
const project = join(tmp.path, 'project');
// These tests check what a session start prints, not how fast: the self-deadline is raised so a busy
// machine cannot turn a slow render into an empty one.
const env = { HOME: join(tmp.path, 'user'), BRAINSTREAM_HOOK_DEADLINE_MS: '600000' };
const CORE = '# Core memory\n\n## Profile (core/profile)\n\nI prefer short answers.';
const DIGEST = 'From MEMORY.md:\n## Standing rules\n- never push to main';
/** sha256("") cut to 16 hex: the core revision of the empty block. */
const EMPTY_REVISION = 'e3b0c44298fc1c14';

const payload = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ ...fixtureJson('session-start.json'), cwd: project, ...over });

beforeAll(() => {
  importPages(home, join(tmp.path, 'pages'), {
    'core/profile': '---\ntitle: Profile\nalways_load: true\ncore_priority: 10\n---\nI prefer short answers.\n',
    'notes/secret': '---\ntitle: Secret\nalways_load: true\nvisibility: private\n---\nnever shown\n',
  });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ 'memory.core.enabled': true }));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'MEMORY.md'), '# Memory\n\n## Standing rules\n- never push to main\n\n## Scratch\nnot in the digest\n');
});

afterAll(() => tmp.cleanup());

describe('hook session-start', () => {
  it('delivers core from serve, then the MEMORY.md digest, as plain text', async () => {
    const serve = await startServe(home);
    try {
      const r = runHook(home, 'session-start', payload(), env);
      expect(r).toMatchObject({ code: 0, stdout: `${CORE}\n\n${DIGEST}\n` });
      const beat = heartbeats(home).at(-1)!;
      expect(beat).toMatchObject({ event: 'session-start', outcome: 'ok', core_chars: CORE.length });
      expect(beat.core_revision).toMatch(/^[0-9a-f]{16}$/);
    } finally {
      await serve.stop();
    }
  });

  it('uses the cache serve left behind when serve is down', () => {
    expect(existsSync(join(home, 'run', 'core-cache.json'))).toBe(true);
    const r = runHook(home, 'session-start', payload(), env);
    expect(r.stdout).toBe(`${CORE}\n\n${DIGEST}\n`);
  });

  it('renders core itself with neither serve nor cache', () => {
    const viaServe = heartbeats(home).find((b) => b.event === 'session-start' && b.core_chars === CORE.length)!;
    rmSync(join(home, 'run', 'core-cache.json'));
    const r = runHook(home, 'session-start', payload(), env);
    expect(r).toMatchObject({ code: 0, stdout: `${CORE}\n\n${DIGEST}\n` });
    const beat = heartbeats(home).at(-1)!;
    expect(beat).toMatchObject({ event: 'session-start', outcome: 'ok', core_chars: CORE.length, core_revision: viaServe.core_revision });
    expect(beat).not.toHaveProperty('reason');
    // Rendering here never creates the cache: only serve keeps it current.
    expect(existsSync(join(home, 'run', 'core-cache.json'))).toBe(false);
  });

  it('BRAINSTREAM_CORE=0 suppresses core for the session; the digest stays', () => {
    const r = runHook(home, 'session-start', payload(), { ...env, BRAINSTREAM_CORE: '0' });
    expect(r.stdout).toBe(`${DIGEST}\n`);
    // No core printed: the revision recorded is the empty block's (the revision hash is defined for "").
    expect(heartbeats(home).at(-1)).toEqual(expect.objectContaining({ outcome: 'ok', core_chars: 0, core_revision: EMPTY_REVISION }));
  });

  it('prints nothing while core memory is disabled and there is no digest', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ 'memory.core.enabled': false }));
    try {
      const r = runHook(home, 'session-start', payload({ cwd: tmp.path }), env);
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect(heartbeats(home).at(-1)).toEqual(expect.objectContaining({ outcome: 'ok', core_chars: 0, core_revision: EMPTY_REVISION }));
    } finally {
      writeFileSync(join(home, 'config.json'), JSON.stringify({ 'memory.core.enabled': true }));
    }
  });

  it('a compaction restart starts a new pressure segment', () => {
    const usage = { used_tokens: 170_000, last_turn_tokens: 1_000 };
    const prompt = { prompt: 'hi', session_id: fixtureJson('session-start.json').session_id, context_usage: usage };
    expect(runHook(home, 'user-prompt', prompt, env).stdout).toMatch(/Context is ~85% full/);
    expect(runHook(home, 'user-prompt', prompt, env).stdout).toBe('');
    runHook(home, 'session-start', { ...fixtureJson('session-start-compact.json'), cwd: project }, env);
    expect(runHook(home, 'user-prompt', prompt, env).stdout).toMatch(/Context is ~85% full/);
  });
});
