import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it is truthy; the timeout only turns a hang into a failure with a name. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = 90_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
