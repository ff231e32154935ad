import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/home.js';
import { runProgram } from '../../src/cli/program.js';
import { ServeRuntime } from '../../src/serve/serve-runtime.js';
import { request } from '../../src/serve-client/socket-client.js';
import { tempDir } from '../support/cli.js';

const home = tempDir('bs-runtime-');
let runtime: ServeRuntime;

beforeAll(async () => {
  runtime = await ServeRuntime.start(home.path, { role: 'serve', pollMs: 50, runCommand: runProgram });
});

afterAll(async () => {
  await runtime.stop();
  home.cleanup();
});

/** A forwarded command with inline stdin and a single JSON answer (the API hooks and MCP use). */
const command = (argv: string[], options: { stdin?: string; env?: Record<string, string> } = {}) =>
  request<{ stdout: string; stderr: string; exitCode: number }>(
    home.path,
    { kind: 'command', argv: ['--home', home.path, ...argv], stdin: options.stdin, env: options.env ?? {}, cwd: home.path },
    { timeoutMs: 600_000 },
  );

describe('the command request', () => {
  it('runs a command with inline stdin and answers stdout, stderr and the exit code', async () => {
    expect(await command(['page', 'put', 'notes/x'], { stdin: '# Alpha X\n\nfrom alpha\n', env: { BRAINSTREAM_SOURCE: 'alpha' } })).toEqual({
      v: 1,
      ok: true,
      stdout: 'put alpha:notes/x (created)\n',
      stderr: '',
      exitCode: 0,
    });
    await command(['page', 'put', 'notes/x'], { stdin: '# Beta X\n\nfrom beta\n', env: { BRAINSTREAM_SOURCE: 'beta' } });
    expect(await command(['page', 'get', 'notes/missing'])).toMatchObject({
      ok: true,
      stdout: '',
      stderr: 'brainstream: page_not_found: no page default:notes/missing\n',
      exitCode: 1,
    });
  });

  it('gives each concurrent command its own environment and output', async () => {
    const sources = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 'alpha' : 'beta'));
    const answers = await Promise.all(sources.map((s) => command(['page', 'get', 'notes/x', '--json'], { env: { BRAINSTREAM_SOURCE: s } })));
    answers.forEach((a, i) => {
      expect(a.ok).toBe(true);
      const page = JSON.parse((a as { stdout: string }).stdout) as { source_id: string; title: string };
      expect(page.source_id).toBe(sources[i]);
      expect(page.title).toBe(sources[i] === 'alpha' ? 'Alpha X' : 'Beta X');
    });
    // serve's own environment is untouched by its callers'
    expect(process.env.BRAINSTREAM_SOURCE).not.toBe('alpha');
  });

  it('refuses commands that run in their own process', async () => {
    expect(await command(['serve'])).toMatchObject({ ok: false, error: 'not_forwardable' });
  });

  it('answers ping with its role and capabilities', async () => {
    expect(await request(home.path, { kind: 'ping' })).toMatchObject({
      v: 1,
      ok: true,
      role: 'serve',
      pid: process.pid,
      capabilities: ['turn_context', 'resolve', 'core_block', 'command', 'operation', 'core_guard'],
    });
  });
});

describe('stop', () => {
  it('removes the socket, secret and lock', async () => {
    const dir = tempDir('bs-runtime-stop-');
    try {
      const r = await ServeRuntime.start(dir.path, { role: 'watch', runCommand: runProgram });
      expect(existsSync(homePaths(dir.path).socket)).toBe(true);
      await r.stop();
      for (const f of [homePaths(dir.path).socket, homePaths(dir.path).secret, homePaths(dir.path).lock]) expect(existsSync(f)).toBe(false);
    } finally {
      dir.cleanup();
    }
  });
});
