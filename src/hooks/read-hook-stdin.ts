const STDIN_DEADLINE_MS = 300;

/** Where a hook reads the harness JSON: the process's stdin, or the payload a fast client sent to serve. */
export type HookStdin = NodeJS.ReadableStream & { isTTY?: boolean; unref?(): void };
const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/**
 * The harness's JSON object on stdin, read within `deadlineMs`; null when it is not an object
 * (absent, malformed, oversized, or incomplete at the deadline). Read as a stream, never with a
 * blocking read: a harness that keeps stdin open must not keep the hook process alive.
 */
export function readHookStdin(deadlineMs = STDIN_DEADLINE_MS, stdin: HookStdin = process.stdin): Promise<Record<string, unknown> | null> {
  if (stdin.isTTY) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
      stdin.pause();
      stdin.unref?.();
      if (!ok || size > MAX_STDIN_BYTES) return resolve(null);
      try {
        const value = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        resolve(value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
      } catch {
        resolve(null);
      }
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_STDIN_BYTES) finish(false);
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(true);
    const onError = (): void => finish(false);
    // A harness that never closes stdin still gets its complete JSON read at the deadline.
    const timer = setTimeout(() => finish(true), deadlineMs);
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
  });
}
