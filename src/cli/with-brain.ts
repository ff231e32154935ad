import { openBrain, type Brain } from '../brain/brain.js';
import { BrainLockedError } from '../brain/brain-lock.js';
import { BrainstreamError } from '../errors.js';

/** Opens the embedded brain for one command and closes it afterwards, whatever happens. */
export async function withBrain<T>(home: string, fn: (brain: Brain) => Promise<T>): Promise<T> {
  let brain: Brain;
  try {
    brain = await openBrain(home);
  } catch (err) {
    if (err instanceof BrainLockedError) throw new BrainstreamError(err.code, err.message, { pid: err.pid });
    throw err;
  }
  try {
    return await fn(brain);
  } finally {
    await brain.close();
  }
}
