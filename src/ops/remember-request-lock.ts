import type { Brain } from '../brain/brain.js';
import { replayKey } from '../core-memory/remember-replay.js';

/** Per brain: the tail of the chain of `remember` calls running for each replay key. */
const chains = new WeakMap<Brain, Map<string, Promise<void>>>();

/**
 * Runs `fn` once every earlier `remember` call with the same replay key (bound source, caller
 * identity, request_id) on this brain has finished. The replay lookup, the item writes and the
 * stored response therefore happen as one unit per key: a second in-flight call with the same
 * request_id waits, then finds the first call's response and replays it instead of writing
 * again. Calls with other keys are not held up. One process owns a brain (the brain lock; serve
 * takes the calls of every client), so serialising inside that process covers every caller.
 */
export async function serialisePerRequest<T>(brain: Brain, source: string, identity: string, requestId: string, fn: () => Promise<T>): Promise<T> {
  let perBrain = chains.get(brain);
  if (!perBrain) chains.set(brain, (perBrain = new Map()));
  const key = replayKey(source, identity, requestId);
  const previous = perBrain.get(key) ?? Promise.resolve();
  const run = previous.then(fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  perBrain.set(key, tail);
  try {
    return await run;
  } finally {
    if (perBrain.get(key) === tail) perBrain.delete(key);
  }
}
