import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built CLI (`npm test` builds before running the suite). */
export const CLI = resolve(import.meta.dirname, '../../dist/src/cli/main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real binary with a private home and returns its exit code and output. */
export function runCli(args: readonly string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    input: options.input ?? '',
    env: { ...process.env, BRAINSTREAM_SOURCE: '', ...options.env },
    cwd: options.cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** The same, asynchronously (for tests that run several processes at once). */
export function runCliAsync(args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, BRAINSTREAM_SOURCE: '', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'bs-'): { path: string; cleanup(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}
