import { AsyncResource } from 'node:async_hooks';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { runWithIo, type CliIo, type ProgressFrame } from '../command-io.js';
import { commandRoute, LOCAL_COMMANDS } from './command-route.js';
import { ERRORS } from '../serve-client/protocol.js';
import type { CommandParams } from '../serve-client/request-schemas.js';
import type { Connection } from './socket-server.js';

/** Runs one command line in this process and returns its exit code (the CLI's `runProgram`). */
export type RunCommand = (argv: readonly string[]) => Promise<number>;

/**
 * Runs CLI commands forwarded by clients with the same program a direct run
 * uses, each with its own sinks, stdin, env and cwd, so the output, exit code and effects are
 * identical. Streamed stdin is fed as it arrives, so a long `watch` never blocks other commands.
 */
export class CommandHost {
  /** How to end each streamed stdin, bound to its command's context. */
  private readonly inputs = new Map<PassThrough, () => void>();

  constructor(
    /** The home this serve owns: the only one its commands may act on. */
    private readonly home: string,
    private readonly runCommand: RunCommand,
    private readonly afterCommand: () => void,
    /** Runs before each command (serve appends what the cold path left meanwhile, so the command sees it). */
    private readonly beforeCommand: () => Promise<void> = async () => {},
  ) {}

  async run(req: CommandParams, conn: Connection): Promise<void> {
    const { command, home } = commandRoute(req.argv, req.env ?? {});
    if (command !== null && LOCAL_COMMANDS.has(command)) {
      return conn.respond({ ok: false, error: ERRORS.notForwardable, message: `${command} runs in its own process, not through serve` });
    }
    // The program would open that other brain from inside this process: never through this socket.
    if (resolve(home) !== resolve(this.home)) {
      return conn.respond({ ok: false, error: ERRORS.invalidRequest, message: `this serve owns ${this.home}; the command names ${home}` });
    }
    await this.beforeCommand();
    const stdin = new PassThrough();
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: req.stream ? (text) => conn.frame({ stdout: text }) : (text) => void (stdout += text),
      stderr: req.stream ? (text) => conn.frame({ stderr: text }) : (text) => void (stderr += text),
      stdin,
      stdinIsTTY: req.stdin_tty === true,
      stderrIsTTY: false,
      forwarded: true,
      env: { ...(req.env ?? {}) },
      cwd: req.cwd ?? process.cwd(),
      pid: req.pid,
      // The client draws a bar only on its own terminal; a pipe gets no progress at all.
      ...(req.stream && req.stderr_tty === true ? { progress: (progress: ProgressFrame | null) => conn.frame({ progress }) } : {}),
    };
    const before = process.exitCode;
    let exitCode: number;
    try {
      exitCode = await runWithIo(io, () => {
        this.feed(stdin, req, conn);
        return this.runCommand(req.argv);
      });
    } finally {
      stdin.destroy();
      this.inputs.delete(stdin);
    }
    // A command that set process.exitCode itself (not setExitCode) still reports its failure.
    if (process.exitCode !== before) {
      if (exitCode === 0 && Number(process.exitCode)) exitCode = Number(process.exitCode);
      process.exitCode = before;
    }
    await conn.respond(req.stream ? { ok: true, exitCode } : { ok: true, stdout, stderr, exitCode });
    this.afterCommand();
  }

  /** Ends every streamed stdin (shutdown): a forwarded `watch` then drains and finishes. */
  endAllInput(): void {
    for (const end of this.inputs.values()) end();
  }

  /**
   * Feeds the command's stdin. The socket's events are bound to the command's context, so
   * whatever stdin triggers synchronously (a `watch` batch at end of input) still writes to
   * this command's sinks.
   */
  private feed(stdin: PassThrough, req: CommandParams, conn: Connection): void {
    if (!req.stdin_stream) {
      stdin.end(req.stdin ?? '');
      return;
    }
    const { socket } = conn;
    if (conn.rest.length > 0) stdin.write(conn.rest);
    const onData = AsyncResource.bind((chunk: Buffer) => {
      if (!stdin.write(chunk)) socket.pause();
    });
    // A client that vanishes without ending its stdin ends it here.
    const onEnd = AsyncResource.bind(() => stdin.end());
    this.inputs.set(stdin, onEnd);
    stdin.on('drain', () => socket.resume());
    stdin.once('close', () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
    });
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.resume();
  }
}
