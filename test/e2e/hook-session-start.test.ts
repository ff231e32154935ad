import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { fixtureJson, heartbeats, importPages, runHook, startServe } from './hook-serve-support.js';

const tmp = tempDir('bs-hook-start-');
const home = join(tmp.path, 'brain');
const project = join(tmp.path, 'project');
const env = { HOME: join(tmp.path, 'user') };
const CORE = '# Core memory\n\n## Profile (core/profile)\n\nI prefer short answers.';
const DIGEST = 'From MEMORY.md:\n## Standing rules\n- never push to main';

const payload = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ ...fixtureJson('session-start.json'), cwd: project, ...over });

beforeAll(() => {
  importPages(home, join(tmp.path, 'pages'), {
    'core/profile': '---\ntitle: Profile\nalways_load: true\ncore_priority: 10\n---\nI prefer short answers.\n',
    'notes/secret': '---\ntitle: Secret\nalways_load: true\nvisibility: private\n---\nnever shown\n',
  });
  writeFileSync(join(home, 'config.json'), JSON.stringify({ 'memory.core.enabled': true }));
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 'MEMORY.md'), '# Memory\n\n## Standing rules\n- never push to main\n\n## Scratch\nnot in the digest\n');
}, 60_000);

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

  it('renders core itself with neither serve nor cache, or fails open without it', () => {
    rmSync(join(home, 'run', 'core-cache.json'));
    const r = runHook(home, 'session-start', payload(), env);
    expect(r.code).toBe(0);
    const beat = heartbeats(home).at(-1)!;
    // Opening the brain must fit the 1.5 s self-deadline; on a slow machine the rest still comes.
    if (beat.reason === 'core_unavailable') expect(r.stdout).toBe(`${DIGEST}\n`);
    else {
      expect(r.stdout).toBe(`${CORE}\n\n${DIGEST}\n`);
      expect(beat).toMatchObject({ event: 'session-start', outcome: 'ok', core_chars: CORE.length });
    }
  });

  it('BRAINSTREAM_CORE=0 suppresses core for the session; the digest stays', () => {
    const r = runHook(home, 'session-start', payload(), { ...env, BRAINSTREAM_CORE: '0' });
    expect(r.stdout).toBe(`${DIGEST}\n`);
    expect(heartbeats(home).at(-1)).toMatchObject({ core_chars: 0 });
  });

  it('prints nothing while core memory is disabled and there is no digest', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ 'memory.core.enabled': false }));
    try {
      const r = runHook(home, 'session-start', payload({ cwd: tmp.path }), env);
      expect(r).toMatchObject({ code: 0, stdout: '' });
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
