// Bad input gets a clear one-line error (issue: compile-context --out a folder, a JSON message cut
// at its newline, a second serve told to start serve). One in-process serve, no spawns.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWithIo } from '../../../src/command-io.js';
import { runProgram } from '../../../src/cli/program.js';
import { tempDir } from '../../support/cli.js';
import { openCliSession, type CliSession } from '../../support/cli-session.js';

const home = tempDir('bs-clear-errors-home-');
const work = tempDir('bs-clear-errors-work-');
let cli: CliSession;

beforeAll(async () => {
  cli = await openCliSession(home.path);
  expect((await cli.run(['core', 'init'])).code).toBe(0);
  expect((await cli.run(['config', 'set', 'memory.core.enabled', 'true'])).code).toBe(0);
});

afterAll(async () => {
  await cli.close();
  home.cleanup();
  work.cleanup();
});

describe('compile-context --out', () => {
  it('a folder is refused by name, and nothing is written into it', async () => {
    const folder = join(work.path, 'folder');
    mkdirSync(folder);
    expect(await cli.run(['compile-context', '--target', 'claude-code', '--include-core', '--out', folder])).toEqual({
      code: 1,
      stdout: '',
      stderr: `brainstream: not_a_file: ${folder} is a folder: --out names the instruction file to write\n`,
    });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a path through a file cannot be written, and says why', async () => {
    writeFileSync(join(work.path, 'plain'), 'x');
    const out = join(work.path, 'plain', 'CLAUDE.md');
    expect(await cli.run(['compile-context', '--target', 'claude-code', '--include-core', '--out', out])).toEqual({
      code: 1,
      stdout: '',
      stderr: `brainstream: file_unwritable: cannot write ${out}: a folder on its path is a file\n`,
    });
  });

  it('a file path still works', async () => {
    const out = join(work.path, 'CLAUDE.md');
    const r = await cli.run(['compile-context', '--target', 'claude-code', '--include-core', '--out', out]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(new RegExp(`^compile-context: wrote ${out} \\(core=`));
  });
});

describe('one line, and all of it', () => {
  it('a JSON parse message that quotes input with newlines is folded onto the error line, not cut', async () => {
    const r = await cli.run(['remember', '--items-file', '-'], { input: 'hello\nworld\n' });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/^brainstream: invalid_params: --items-file - is not JSON \(.*hello world.*\); it must hold an array of items or \{"items": \[\.\.\.\]\}$/), '']);
  });
});

describe('a second serve', () => {
  it('is told that serve is already running, with its pid', async () => {
    let stdout = '';
    let stderr = '';
    const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t), stdin: null, stdinIsTTY: false, stderrIsTTY: false, forwarded: false };
    const code = await runWithIo(io, () => runProgram(['--home', home.path, 'serve']));
    expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: `brainstream: brain_locked: serve already running (pid ${process.pid})\n` });
    // The running serve is untouched.
    expect((await cli.run(['core', 'status'])).code).toBe(0);
  });
});
