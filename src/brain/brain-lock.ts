import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAlive } from '../process-alive.js';

export class BrainLockedError extends Error {
  readonly code = 'brain_locked';
  constructor(readonly pid: number) {
    super(`the brain is open in another process (pid ${pid}); stop it, or start \`brainstream serve\` so commands share it`);
  }
}

/** Locks this process holds, so a second open of the same brain in-process is refused too. */
const heldHere = new Set<string>();

/** One lock file as seen at one moment: which file (inode and change time) and whose pid it names. */
interface LockFile {
  identity: string;
  pid: number;
}

function inspect(path: string): LockFile | null {
  try {
    const stat = statSync(path, { bigint: true });
    const pid = Number(readFileSync(path, 'utf8').trim());
    return { identity: `${stat.dev}-${stat.ino}-${stat.ctimeNs}`, pid: Number.isInteger(pid) && pid > 0 ? pid : 0 };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

const sameFile = (a: LockFile | null, b: LockFile): boolean => a !== null && a.identity === b.identity && a.pid === b.pid;

/**
 * Creates `path` holding this process's pid, complete or not at all: the pid is written to a
 * private temp file first, then hard-linked to the name, which fails when the name exists.
 * So nobody ever reads a half-written lock.
 */
function tryCreate(path: string): boolean {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temp, String(process.pid), { mode: 0o600 });
  try {
    linkSync(temp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Whether `file` (seen at `path`) belongs to a process that is gone, or names none. */
const isStale = (path: string, file: LockFile): boolean =>
  file.pid === 0 || (file.pid === process.pid ? !heldHere.has(path) : !isAlive(file.pid));

/**
 * Removes the stale lock `seen` — only that exact file, never one created since. Removers of one
 * stale file are serialised by an exclusive claim named after it, and the holder of the claim
 * re-checks the name still is that file before unlinking: nobody else can remove or replace it
 * meanwhile (its owner is dead and every other remover needs the claim). A claim left by a
 * remover that died is itself stale and removed the same way. `busy`: another process is
 * removing it right now.
 */
function removeStale(path: string, seen: LockFile, depth = 0): 'removed' | 'changed' | 'busy' {
  const claim = `${path}.takeover-${seen.identity}`;
  if (!tryCreate(claim)) {
    const claimant = inspect(claim);
    if (claimant === null) return 'changed';
    if (depth < 3 && isStale(claim, claimant)) return removeStale(claim, claimant, depth + 1) === 'busy' ? 'busy' : 'changed';
    return 'busy';
  }
  try {
    if (!sameFile(inspect(path), seen)) return 'changed';
    unlinkSync(path);
    return 'removed';
  } finally {
    rmSync(claim, { force: true });
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Lets the process removing a stale lock finish (the lock is taken synchronously, before the database opens). */
const waitBriefly = (ms: number): void => void Atomics.wait(pause, 0, 0, ms);

/**
 * One process owns the embedded database at a time. The lock file holds the owner's pid;
 * taking it is atomic (a complete file is linked into place or not), and a lock left by a dead
 * process (kill -9) is taken over exactly once, however many processes try at the same time.
 * A live holder is never displaced: `BrainLockedError` names it.
 */
export function acquireBrainLock(path: string): () => void {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (tryCreate(path)) {
      heldHere.add(path);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldHere.delete(path);
        rmSync(path, { force: true });
      };
    }
    const holder = inspect(path);
    if (holder === null) continue; // released meanwhile: try again
    if (!isStale(path, holder)) throw new BrainLockedError(holder.pid);
    if (removeStale(path, holder) === 'busy') waitBriefly(2);
  }
  throw new Error(`could not take the brain lock ${path}: it keeps changing hands`);
}
