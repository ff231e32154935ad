import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `check` until it is truthy. The budget only turns a hang into a failure with a name; it is
 * just under the test timeout because a busy machine may take minutes for what takes seconds idle.
 */
export const WAIT_BUDGET_MS = 590_000;

export async function waitFor<T>(what: string, check: () => T | Promise<T>, timeoutMs = WAIT_BUDGET_MS): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}
