import { openBrain, type Brain } from '../brain/brain.js';
import { BrainLockedError } from '../brain/brain-lock.js';
import { topicOf } from '../domain/events.js';
import { BrainstreamError } from '../errors.js';
import { snapshotCurrent } from '../cold/cold-files.js';
import { refreshColdFiles } from '../serve/core-cache-file.js';
import { hostedBrain, type HostedBrain } from '../serve/hosted-brain.js';
import type { RunCommand } from '../serve/command-host.js';
import { ServeRuntime, type RuntimeOptions } from '../serve/serve-runtime.js';

/** `brain_locked`, exit 1, naming the holder's pid and the way out. */
function lockedError(err: BrainLockedError): BrainstreamError {
  return new BrainstreamError(err.code, err.message, { pid: err.pid });
}

/**
 * Runs `fn` with the brain of `home`. Inside serve (a forwarded command) that is serve's open
 * brain, shared and left open; otherwise the brain is opened for this command and closed
 * afterwards, whatever happens — refused cleanly when another process holds it.
 */
export async function withBrain<T>(home: string, fn: (brain: Brain) => Promise<T>): Promise<T> {
  const hosted = hostedBrain(home);
  if (hosted) return fn(hosted.brain);
  let brain: Brain;
  try {
    brain = await openBrain(home, { brief: true });
  } catch (err) {
    if (err instanceof BrainLockedError) throw lockedError(err);
    throw err;
  }
  let pagesChanged = false;
  const off = brain.onCommit((events) => {
    if (events.some((e) => topicOf(e.type) === 'pages')) pagesChanged = true;
  });
  try {
    return await fn(brain);
  } finally {
    off();
    // Serve keeps the cold-path files current; while it is down, the command that changed pages
    // (or found the files missing or behind) does.
    if (pagesChanged || !snapshotCurrent(home)) await refreshColdFiles(brain, home);
    await brain.close();
  }
}

/**
 * Starts a runtime owning `home` (serve, or a watch without one), runs `fn`, then stops it
 * gracefully: commands forwarded meanwhile finish first; an interrupt while waiting ends
 * their stdin. Refused cleanly when another process holds the brain.
 */
export async function withServeRuntime<T>(home: string, options: RuntimeOptions, fn: (runtime: ServeRuntime) => Promise<T>): Promise<T> {
  let runtime: ServeRuntime;
  try {
    runtime = await ServeRuntime.start(home, options);
  } catch (err) {
    if (err instanceof BrainLockedError) throw lockedError(err);
    throw err;
  }
  try {
    return await fn(runtime);
  } finally {
    const onSignal = (): void => runtime.endInput();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      await runtime.stop();
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

/**
 * Runs `fn` with a brain that runs the volunteer processor continuously (`watch`): serve's when
 * this command runs inside it; otherwise this process opens the brain and serves the socket
 * itself while `fn` runs, so commands started meanwhile go through it.
 */
export async function withStreamHost<T>(home: string, runCommand: RunCommand, fn: (host: HostedBrain) => Promise<T>): Promise<T> {
  const hosted = hostedBrain(home);
  if (hosted) return fn(hosted);
  return withServeRuntime(home, { role: 'watch', runCommand }, (runtime) => fn(runtime.hosted));
}
