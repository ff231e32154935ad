import type { Socket } from 'node:net';
import { forwardedEnv } from '../serve/forwarded-env.js';
import { LineSplitter } from '../serve-client/line-splitter.js';
import type { CommandRequest } from '../serve-client/protocol.js';
import { connectServe, requestLine } from '../serve-client/socket-client.js';
import { terminalBar, type Progress } from './progress.js';

/**
 * Runs a CLI command inside the serve (or watch) that owns `home`: stdin streams to it as it
 * arrives, its stdout/stderr come back as frames in the order written, and the exit code is
 * the command's. Returns null when no serve listens (the caller opens the brain itself).
 * `input`: the command's stdin (this process's, unless a part of it was read already).
 */
export async function forwardCommand(home: string, args: readonly string[], input: NodeJS.ReadableStream = process.stdin): Promise<number | null> {
  let conn: Awaited<ReturnType<typeof connectServe>>;
  try {
    conn = await connectServe(home);
  } catch {
    return null;
  }
  if (conn === null) return null;
  const { socket, secret } = conn;
  const req: CommandRequest = {
    kind: 'command',
    // The home named, so serve's program resolves this client's home whatever serve's own environment.
    argv: namesHome(args) ? [...args] : ['--home', home, ...args],
    env: forwardedEnv(process.env),
    cwd: process.cwd(),
    stream: true,
    stdin_stream: true,
    stdin_tty: process.stdin.isTTY === true,
    stderr_tty: process.stderr.isTTY === true,
    pid: process.pid,
  };
  socket.write(requestLine(req, secret));
  input.pipe(socket);
  return new Promise<number>((resolve) => {
    let interrupted = false;
    // Ctrl-C / SIGTERM: end stdin for the command (watch drains and exits 0); a second one quits.
    const onSignal = (): void => {
      if (interrupted) {
        finish(130);
        return;
      }
      interrupted = true;
      input.unpipe(socket);
      socket.end();
    };
    const finish = (code: number): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      input.unpipe(socket);
      if (input !== process.stdin) process.stdin.unpipe();
      process.stdin.destroy();
      socket.destroy();
      resolve(code);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    readFrames(socket, finish);
  });
}

/** Copies output frames to this process's streams until the final line, then reports the exit code. */
function readFrames(socket: Socket, finish: (code: number) => void): void {
  const lines = new LineSplitter();
  let done = false;
  const bar = new ForwardedBar();
  const end = (code: number): void => {
    if (done) return;
    done = true;
    bar.show(null);
    finish(code);
  };
  socket.on('data', (chunk: Buffer) => {
    if (done) return;
    for (const line of lines.push(chunk)) {
      let frame: Record<string, unknown>;
      try {
        frame = JSON.parse(line) as Record<string, unknown>;
      } catch {
        process.stderr.write('brainstream: ipc_unavailable: serve sent an unreadable frame\n');
        end(1);
        return;
      }
      if ('progress' in frame) bar.show(frame.progress);
      else if (typeof frame.stdout === 'string') process.stdout.write(frame.stdout);
      else if (typeof frame.stderr === 'string') process.stderr.write(frame.stderr);
      else if (frame.ok === true) {
        end(typeof frame.exitCode === 'number' ? frame.exitCode : 1);
        return;
      } else {
        const message = typeof frame.message === 'string' ? frame.message : 'serve refused the command';
        process.stderr.write(`brainstream: ${String(frame.error ?? 'ipc_unavailable')}: ${message}\n`);
        end(1);
        return;
      }
    }
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (done) return;
    process.stderr.write('brainstream: ipc_unavailable: serve closed the connection before the command finished\n');
    end(1);
  });
}

/** The progress serve reports for a forwarded command, drawn on this terminal; a bar per label. */
class ForwardedBar {
  private bar: Progress | null = null;
  private label = '';

  show(frame: unknown): void {
    const p = frame as { label?: unknown; done?: unknown; total?: unknown } | null;
    if (p === null || typeof p !== 'object' || typeof p.label !== 'string' || typeof p.done !== 'number' || typeof p.total !== 'number') {
      this.bar?.stop();
      this.bar = null;
      return;
    }
    if (this.bar && this.label !== p.label) this.bar.stop();
    if (!this.bar || this.label !== p.label) {
      this.bar = terminalBar(p.label, process.stderr);
      this.label = p.label;
    }
    this.bar.update(p.done, p.total);
  }
}

/** True when the command line gives `--home` itself (before any `--`). */
function namesHome(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--home' || a.startsWith('--home=')) return true;
  }
  return false;
}
