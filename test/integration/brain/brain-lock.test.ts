import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireBrainLock, BrainLockedError } from '../../../src/brain/brain-lock.js';
import { tempDir } from '../../support/cli.js';

/** The built lock module, which the racing processes load (`npm test` builds first). */
const LOCK_MODULE = resolve(import.meta.dirname, '../../../dist/src/brain/brain-lock.js');

/**
 * One racer: waits for the start file, tries to take the lock once, reports `held` or
 * `locked <pid>`, and (when it holds it) keeps it until the release file appears. Files, not
 * timers, order everything, so the outcome does not depend on the machine's speed.
 */
const RACER = `
import { existsSync } from 'node:fs';
const { acquireBrainLock } = await import(process.env.LOCK_MODULE);
const [lock, start, release] = process.argv.slice(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
const waitFor = (file) => { while (!existsSync(file)) Atomics.wait(pause, 0, 0, 2); };
process.stdout.write('ready\\n');
waitFor(start);
let unlock;
try {
  unlock = acquireBrainLock(lock);
} catch (err) {
  process.stdout.write(err.code === 'brain_locked' ? 'locked ' + err.pid + '\\n' : 'error ' + err.message + '\\n');
  process.exit(0);
}
process.stdout.write('held\\n');
waitFor(release);
unlock();
`;

interface Racer {
  child: ChildProcess;
  lines: string[];
  stderr: string;
  closed: boolean;
  exited: Promise<void>;
}

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function startRacer(dir: string, lock: string): Racer {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RACER, lock, join(dir, 'start'), join(dir, 'release')], {
    env: { ...process.env, LOCK_MODULE },
  });
  const racer: Racer = { child, lines: [], stderr: '', closed: false, exited: Promise.resolve() };
  let buffer = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    racer.lines.push(...parts);
  });
  child.stderr!.on('data', (d: Buffer) => (racer.stderr += d.toString()));
  racer.exited = new Promise<void>((done) => child.on('close', () => ((racer.closed = true), done())));
  return racer;
}

/** Waits until `check` holds; a racer that exits before reporting fails the test with its stderr. */
async function until(racers: Racer[], check: () => boolean): Promise<void> {
  while (!check()) {
    const gone = racers.find((r) => r.closed && r.lines.length < 2);
    if (gone) throw new Error(`a racer exited early: ${gone.lines.join(' | ')} ${gone.stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts `n` racers at once on `lock`; resolves with each one's report once all have one. */
async function race(dir: string, lock: string, n: number): Promise<{ racers: Racer[]; reports: string[] }> {
  const racers = Array.from({ length: n }, () => startRacer(dir, lock));
  await until(racers, () => racers.every((r) => r.lines.includes('ready')));
  writeFileSync(join(dir, 'start'), '');
  await until(racers, () => racers.every((r) => r.lines.length >= 2));
  return { racers, reports: racers.map((r) => r.lines[1]!) };
}

async function finish(dir: string, racers: Racer[]): Promise<void> {
  writeFileSync(join(dir, 'release'), '');
  await Promise.all(racers.map((r) => r.exited));
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.on('close', done));
  return child.pid!;
}

/** One race of 8 processes for a lock that is free (`stalePid` null) or left by a dead process. */
async function raceOnce(stalePid: number | null): Promise<void> {
  const dir = tempDir('bs-lock-race-');
  dirs.push(dir);
  const lock = join(dir.path, 'brain.lock');
  if (stalePid !== null) writeFileSync(lock, String(stalePid));
  const { racers, reports } = await race(dir.path, lock, 8);
  const holders = racers.filter((_, i) => reports[i] === 'held');
  expect(holders).toHaveLength(1);
  const holderPid = holders[0]!.child.pid!;
  expect(reports.filter((r) => r !== 'held')).toEqual(Array(7).fill(`locked ${holderPid}`));
  expect(readFileSync(lock, 'utf8')).toBe(String(holderPid));
  await finish(dir.path, racers);
  // Released, and no takeover claim or temporary file is left behind.
  expect(readdirSync(dir.path).sort()).toEqual(['release', 'start']);
}

describe('brain lock', () => {
  // Several rounds: a race lost only now and then must still show.
  it('lets exactly one of many processes racing for a free lock hold it, round after round', async () => {
    for (let round = 0; round < 5; round++) await raceOnce(null);
  });

  it('hands a lock left by a dead process to exactly one of many racers, round after round', async () => {
    for (let round = 0; round < 3; round++) await raceOnce(await deadPid());
  });

  it('never displaces a live holder, from another process or this one', async () => {
    const dir = tempDir('bs-lock-live-');
    dirs.push(dir);
    const lock = join(dir.path, 'brain.lock');
    const release = acquireBrainLock(lock);
    try {
      const { racers, reports } = await race(dir.path, lock, 6);
      expect(reports).toEqual(Array(6).fill(`locked ${process.pid}`));
      await finish(dir.path, racers);
      expect(() => acquireBrainLock(lock)).toThrow(BrainLockedError);
      expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    } finally {
      release();
    }
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock naming this process that it does not hold (a previous run with the same pid)', () => {
    const dir = tempDir('bs-lock-own-');
    dirs.push(dir);
    const lock = join(dir.path, 'brain.lock');
    writeFileSync(lock, String(process.pid));
    const release = acquireBrainLock(lock);
    expect(() => acquireBrainLock(lock)).toThrow(BrainLockedError);
    release();
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a stale lock even when a process that was removing it died midway', async () => {
    const dir = tempDir('bs-lock-claim-');
    dirs.push(dir);
    const lock = join(dir.path, 'brain.lock');
    writeFileSync(lock, String(await deadPid()));
    // The claim a remover takes is named after the exact lock file it removes.
    const s = statSync(lock, { bigint: true });
    writeFileSync(`${lock}.takeover-${s.dev}-${s.ino}-${s.ctimeNs}`, String(await deadPid()));
    const release = acquireBrainLock(lock);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    release();
    expect(readdirSync(dir.path)).toEqual([]);
  });
});
