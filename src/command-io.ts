import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where one CLI run reads and writes. A direct run uses the process's streams; a command
 * forwarded to `serve` runs in serve's process with its own sinks, stdin, env and cwd, so
 * concurrent forwarded commands never mix their output and see the caller's environment.
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Null: no stdin at all (reads give ""). */
  stdin: NodeJS.ReadableStream | null;
  stdinIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Set by a command that finishes with a non-zero code without throwing (e.g. import with failures). */
  exitCode?: number;
  /** True when the command runs inside serve on behalf of a client process. */
  forwarded: boolean;
  /** The caller's environment subset and working directory (forwarded runs only). */
  env?: Record<string, string>;
  cwd?: string;
  /** The caller's process id (forwarded runs), for ids that name the process (`watch-<pid>-…`). */
  pid?: number;
  /**
   * Forwarded runs whose client has a terminal on stderr: where a progress bar's state goes (the
   * client draws it); null ends the bar.
   */
  progress?: (frame: ProgressFrame | null) => void;
}

/** One state of a progress bar, as a forwarded command sends it to its client. */
export interface ProgressFrame {
  label: string;
  done: number;
  total: number;
}

/** The process's own streams (a direct run); a fresh object per run keeps its exit code apart. */
export const processStreamsIo = (): CliIo => ({
  stdout: (text) => {
    process.stdout.write(text);
  },
  stderr: (text) => {
    process.stderr.write(text);
  },
  get stdin() {
    return process.stdin;
  },
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
  get stderrIsTTY() {
    return process.stderr.isTTY === true;
  },
  forwarded: false,
});

const processIo = processStreamsIo();
const storage = new AsyncLocalStorage<CliIo>();

/** The I/O of the command running in this async context (the process's streams by default). */
export const cliIo = (): CliIo => storage.getStore() ?? processIo;

/** The I/O of a forwarded command, or undefined outside one. */
export const forwardedIo = (): CliIo | undefined => {
  const io = storage.getStore();
  return io?.forwarded ? io : undefined;
};

export function runWithIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  return storage.run(io, fn);
}

/** Ends the current command with `code` once it returns (0 stays the default). */
export function setExitCode(code: number): void {
  const io = storage.getStore();
  if (io) io.exitCode = code;
  else process.exitCode = code;
}

/** Runs `fn` outside any forwarded command, so background work never sees a caller's env or sinks. */
export const outsideCommand = <T>(fn: () => T): T => storage.exit(fn);
