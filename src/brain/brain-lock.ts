import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';

export class BrainLockedError extends Error {
  readonly code = 'brain_locked';
  constructor(readonly pid: number) {
    super(`the brain is open in another process (pid ${pid}); stop it, or start \`brainstream serve\` so commands share it`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One process owns the embedded database at a time. The lock file holds the owner's pid; a
 * lock left by a dead process (kill -9) is taken over.
 */
export function acquireBrainLock(path: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(path, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) throw new BrainLockedError(pid);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`could not take the brain lock ${path}`);
}
