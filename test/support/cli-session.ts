import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_COMMANDS, commandRoute } from '../../src/serve/command-route.js';
import { forwardedEnv } from '../../src/serve/forwarded-env.js';
import type { Socket } from 'node:net';
import { LineSplitter } from '../../src/serve-client/line-splitter.js';
import type { CommandRequest } from '../../src/serve-client/protocol.js';
import { ServeRuntime } from '../../src/serve/serve-runtime.js';
import { runProgram } from '../../src/cli/program.js';
import { connectServe, requestLine } from '../../src/serve-client/socket-client.js';
import type { CliResult } from './cli.js';

export interface CliRunOptions {
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** The CLI of one home, run in this process on a brain that stays open between commands. */
export interface CliSession {
  readonly home: string;
  /** Runs one command line (without `--home`) and returns its exit code and output. */
  run(args: readonly string[], options?: CliRunOptions): Promise<CliResult>;
  /** Writes markdown pages (`slug` → text) under `folder` and imports them; throws when the import fails. */
  importPages(folder: string, pages: Record<string, string>): Promise<void>;
  /** Reads the brain's database as it stands (no catch-up of its own). */
  query<R>(sql: string): Promise<R[]>;
  /** Stops serve gracefully (the brain is closed and the lock released). */
  close(): Promise<void>;
}

/**
 * Starts `serve` of `home` in this process and returns a CLI whose commands go to it, exactly as
 * the `brainstream` binary forwards them while serve runs: the same commander program, with the
 * command's own stdin, stdout, stderr, environment and working directory, and its exit code.
 * Nothing is spawned and the embedded database is opened once, not once per command. Tests of
 * what only a process shows (exit on a signal, the lock between processes, a run without serve)
 * spawn the binary with `runCli` instead.
 */
export async function openCliSession(home: string): Promise<CliSession> {
  // Tests check blocks, not speed: a turn's assembly may take as long as a busy machine needs.
  const runtime = await ServeRuntime.start(home, { role: 'serve', runCommand: runProgram, turnBudgetMs: 600_000 });
  const run = async (args: readonly string[], options: CliRunOptions = {}): Promise<CliResult> => {
    const argv = ['--home', home, ...args];
    const { command } = commandRoute(argv);
    if (command !== null && LOCAL_COMMANDS.has(command)) throw new Error(`${command} never goes through serve: spawn it with runCli`);
    const conn = await connectServe(home);
    if (conn === null) throw new Error(`serve of ${home} is not listening`);
    // As the binary sends it: stdin streamed as raw bytes, output back as frames in order.
    const req: CommandRequest = {
      kind: 'command',
      argv,
      env: forwardedEnv({ ...process.env, BRAINSTREAM_SOURCE: '', ...options.env }),
      cwd: options.cwd ?? process.cwd(),
      stream: true,
      stdin_stream: true,
      stdin_tty: false,
      pid: process.pid,
    };
    conn.socket.write(requestLine(req, conn.secret));
    conn.socket.end(options.input ?? '');
    return readFrames(conn.socket);
  };
  return {
    home,
    run,
    async importPages(folder, pages) {
      for (const [slug, text] of Object.entries(pages)) {
        const file = join(folder, `${slug}.md`);
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, text);
      }
      const r = await run(['import', folder]);
      if (r.code !== 0) throw new Error(`import failed: ${r.stderr}`);
    },
    query: (sql) => runtime.hosted.brain.db.query(sql),
    close: () => runtime.stop(),
  };
}

/** Collects a forwarded command's output frames until its final line. */
function readFrames(socket: Socket): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const lines = new LineSplitter();
    let stdout = '';
    let stderr = '';
    let done = false;
    const finish = (result: CliResult): void => {
      done = true;
      socket.destroy();
      resolve(result);
    };
    socket.on('data', (chunk: Buffer) => {
      for (const line of done ? [] : lines.push(chunk)) {
        const frame = JSON.parse(line) as { stdout?: string; stderr?: string; ok?: boolean; exitCode?: number; error?: string; message?: string };
        if (typeof frame.stdout === 'string') stdout += frame.stdout;
        else if (typeof frame.stderr === 'string') stderr += frame.stderr;
        else if (frame.ok === true) return finish({ code: frame.exitCode ?? 1, stdout, stderr });
        else return finish({ code: 1, stdout, stderr: `${stderr}brainstream: ${frame.error}: ${frame.message ?? ''}\n` });
      }
    });
    socket.on('error', (err) => done || reject(err));
    socket.on('close', () => done || reject(new Error('serve closed the connection before the command finished')));
  });
}
