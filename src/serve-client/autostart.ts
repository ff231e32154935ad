import { isAlive } from '../process-alive.js';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHome, homePaths } from '../home.js';
import { packageRoot } from '../package-root.js';
import { packageVersion } from '../package-version.js';
import type { PingResult } from './protocol.js';
import { connectServe, request, ServeRequestError } from './socket-client.js';

/**
 * Serve starts itself: a command that would go through serve and finds none starts one in the
 * background (detached, stopping itself when idle) and waits, bounded, until it answers. Many
 * commands starting at once start one serve: whoever creates `run/autostart.lock` spawns it, the
 * others wait for the same socket. `BRAINSTREAM_AUTOSTART=0` turns this off.
 */

/** How long a command waits for a serve it started (or saw starting) to answer. */
const READY_WAIT_MS = 60_000;
/** How long a serve of another version gets to stop before a new one is started. */
const STOP_WAIT_MS = 30_000;
const POLL_MS = 50;

export const autostartEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => env.BRAINSTREAM_AUTOSTART !== '0';

export type ServeState = 'running' | 'started' | 'unavailable';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The serve (or watch) of `home` answering a ping within `timeoutMs`, or null when none listens. */
export async function pingServe(home: string, timeoutMs = 5_000): Promise<PingResult | null> {
  try {
    const res = await request<PingResult>(home, { kind: 'ping' }, { timeoutMs });
    return res.ok === true ? res : null;
  } catch (err) {
    if (err instanceof ServeRequestError) return null;
    throw err;
  }
}

async function listening(home: string): Promise<boolean> {
  try {
    const conn = await connectServe(home);
    conn?.socket.destroy();
    return conn !== null;
  } catch {
    return false;
  }
}

const lockPath = (home: string): string => join(homePaths(home).run, 'autostart.lock');

/**
 * Claims the right to start serve. The claim holds the pid of the serve it started; it is stale
 * (and taken over) once that process is gone or the claim is older than the readiness wait.
 */
function claimStart(home: string): boolean {
  const path = lockPath(home);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    let stale: boolean;
    try {
      const pid = Number(readFileSync(path, 'utf8').trim());
      stale = (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) || Date.now() - statSync(path).mtimeMs > READY_WAIT_MS;
    } catch {
      stale = true; // removed meanwhile
    }
    if (!stale) return false;
    rmSync(path, { force: true });
  }
  return false;
}

/**
 * Starts `brainstream serve --idle-stop` for `home`, detached, its output appended to
 * run/serve.log. Returns a function telling whether it has exited already.
 */
function spawnServe(home: string): () => boolean {
  const log = openSync(join(homePaths(home).run, 'serve.log'), 'a', 0o600);
  try {
    const child = spawn(process.execPath, [join(packageRoot(), 'dist', 'src', 'cli', 'main.js'), '--home', home, 'serve', '--idle-stop'], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...process.env, BRAINSTREAM_AUTOSTART: '0' },
    });
    let exited = child.pid === undefined;
    child.once('exit', () => (exited = true));
    child.once('error', () => (exited = true));
    child.unref();
    if (child.pid) writeFileSync(lockPath(home), String(child.pid), { mode: 0o600 });
    return () => exited;
  } finally {
    closeSync(log);
  }
}

/** Waits until a serve of `home` answers a ping, or the deadline passes, or `gone()` says it never will. */
async function untilReady(home: string, deadline: number, gone: () => boolean): Promise<PingResult | null> {
  while (Date.now() < deadline) {
    if (await listening(home)) return pingServe(home, Math.max(1, deadline - Date.now()));
    if (gone()) return null;
    await sleep(POLL_MS);
  }
  return null;
}

/** Asks a serve of another version to stop (SIGTERM) and waits until its socket is gone. */
async function replace(home: string, old: PingResult): Promise<void> {
  try {
    process.kill(old.pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  while (Date.now() < deadline && isAlive(old.pid)) await sleep(POLL_MS);
}

/** Serves this process spawned and did not wait for: whether each has exited already. */
const spawnedHere = new Map<string, () => boolean>();

/**
 * Makes sure a serve of this version runs for `home`: 'running' when one already answered,
 * 'started' when one was started (by this process or a concurrent one) and answers now,
 * 'unavailable' when none could be started in time (the caller then works without it).
 * `wait: false` (hooks, which cannot wait): starts one if none listens and returns at once.
 */
export async function ensureServe(home: string, options: { wait?: boolean } = {}): Promise<ServeState> {
  const wait = options.wait ?? true;
  if (await listening(home)) {
    if (!wait) return 'running';
    const ping = await pingServe(home, READY_WAIT_MS);
    if (ping && (ping.role !== 'serve' || ping.version === packageVersion())) return 'running';
    if (ping) await replace(home, ping);
  }
  ensureHome(home);
  // A serve this process started without waiting (a `watch` on the cold path) is still its own to watch for.
  const exited = claimStart(home) ? spawnServe(home) : (spawnedHere.get(home) ?? null);
  if (!wait) {
    if (exited) spawnedHere.set(home, exited);
    return 'started';
  }
  spawnedHere.delete(home);
  const deadline = Date.now() + READY_WAIT_MS;
  // Whoever spawned it stops waiting when the process is gone (another owner holds the brain).
  const ping = await untilReady(home, deadline, () => exited?.() === true);
  if (exited) rmSync(lockPath(home), { force: true });
  return ping ? 'started' : 'unavailable';
}
