import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { homePaths } from '../../src/home.js';
import { request } from '../../src/serve-client/socket-client.js';
import { CLI } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

export { eventually };

/** A `brainstream serve` child process on a home, and its stderr so far. */
export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** SIGTERM, then the exit code once it exited. */
  stop(): Promise<number | null>;
}

/** Starts the real binary's `serve` and waits until it answers a ping. */
/** Serve of `home` in its own process; its turn budget is raised (tests check blocks, not speed) unless `env` says otherwise. */
export async function startServe(home: string, env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, '--home', home, 'serve'], { env: { ...process.env, BRAINSTREAM_SOURCE: '', BRAINSTREAM_HOOK_DEADLINE_MS: '600000', ...env } });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`serve exited: ${err}`);
    try {
      const r = await request(home, { kind: 'ping' }, { timeoutMs: 60_000 });
      return r.ok ? true : undefined;
    } catch {
      return undefined;
    }
  });
  return {
    child,
    stderr: () => err,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Writes markdown pages (`slug` → content) under `dir`. */
export function writePages(dir: string, pages: Record<string, string>): void {
  for (const [slug, content] of Object.entries(pages)) {
    const file = join(dir, `${slug}.md`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, content);
  }
}

/** Sends raw bytes on a fresh connection to the serve socket and collects everything it answers. */
export function rawExchange(home: string, bytes: string | Buffer, options: { end?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: homePaths(home).socket, allowHalfOpen: true });
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e)));
    socket.on('end', () => socket.end());
    socket.on('close', () => resolve(answer));
    socket.write(bytes, () => {
      if (options.end !== false) socket.end();
    });
  });
}

/** A streaming CLI process with stdin kept open: write lines, read its stdout as it comes. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, BRAINSTREAM_SOURCE: '', BRAINSTREAM_HOOK_DEADLINE_MS: '600000', ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    write: (line: string) => child.stdin.write(line),
    end: () => child.stdin.end(),
    exited,
  };
}
