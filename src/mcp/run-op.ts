import { openBrain } from '../brain/brain.js';
import { BrainLockedError } from '../brain/brain-lock.js';
import type { Caller } from '../caller.js';
import { BrainstreamError } from '../errors.js';
import { localOpContext } from '../ops/operations/local-op-context.js';
import { errorEnvelope, runOperation } from '../ops/registry.js';
import { autostartEnabled, ensureServe } from '../serve-client/autostart.js';
import { runViaServe, type OpOutcome } from './op-route.js';

/**
 * One tool call: through a running serve when there is one, else on the brain opened for this
 * call only and closed right after, so other commands are never blocked for the server's life.
 */
export async function runOpForTool(home: string, caller: Caller, op: string, params: unknown): Promise<OpOutcome> {
  try {
    let forwarded = await runViaServe(home, caller, op, params);
    if (!forwarded && autostartEnabled() && (await ensureServe(home)) !== 'unavailable') forwarded = await runViaServe(home, caller, op, params);
    if (forwarded) return forwarded;
    let brain;
    try {
      brain = await openBrain(home, { brief: true });
    } catch (err) {
      if (err instanceof BrainLockedError) throw new BrainstreamError(err.code, err.message, { pid: err.pid });
      throw err;
    }
    try {
      return { ok: true, result: await runOperation(localOpContext(brain, caller, home), op, params) };
    } finally {
      await brain.close();
    }
  } catch (err) {
    return { ok: false, envelope: errorEnvelope(err) };
  }
}
