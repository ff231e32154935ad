import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';
import { startServe, type ServeProcess } from './serve-harness.js';

/**
 * A reader that stops reading (`brainstream page list | head -1`) closes the pipe: the command
 * ends quietly with status 0, never with an EPIPE stack trace.
 */
function withClosedStdout(args: readonly string[], input = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, BRAINSTREAM_SOURCE: '' } });
    // Closed before the command writes anything: its first write meets a reader that is gone.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(input);
  });
}

const dir = tempDir('bs-pipe-');
const home = dir.path;
let serve: ServeProcess | undefined;

beforeAll(() => {
  const pages = Array.from({ length: 4 }, (_, i) => `people/person-${i}`);
  for (const slug of pages) runCli(['--home', home, 'page', 'put', slug], { input: `---\ntitle: Person Number ${slug.slice(-2)}\nalways_load: true\n---\nA line about ${slug}.\n` });
});

afterAll(async () => {
  await serve?.stop();
  dir.cleanup();
});

const COMMANDS: [string, string[], string][] = [
  ['page list', ['page', 'list'], ''],
  ['core status', ['core', 'status'], ''],
  ['watch --json', ['watch', '--json', '--session-id', 'pipe'], 'user: Person Number -0 and Person Number -1\nuser: Person Number -2\n'],
];

describe.each([false, true])('a closed output pipe (serve running: %s)', (withServe) => {
  beforeAll(async () => {
    if (withServe) serve = await startServe(home);
  });

  it.each(COMMANDS)('%s exits 0 without a word', async (_name, args, input) => {
    const r = await withClosedStdout(['--home', home, ...args], input);
    // watch says on stderr that its session is ready, before it reads; nothing else is said.
    expect(r.stderr.replace('[watch] session pipe ready\n', '')).toBe('');
    expect(r.code).toBe(0);
  });
});
