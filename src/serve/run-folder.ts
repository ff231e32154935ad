import { randomBytes } from 'node:crypto';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homePaths } from '../home.js';

/**
 * Prepares `<home>/run` for a new owner of the brain (the lock is held): owner-only folder, no
 * stale socket from a killed process, a fresh random secret (0600) for this run.
 */
export function prepareRunFolder(home: string): string {
  const paths = homePaths(home);
  chmodSync(paths.run, 0o700);
  rmSync(paths.socket, { force: true });
  rmSync(paths.hookPort, { force: true });
  const secret = randomBytes(32).toString('hex');
  const tmp = `${paths.secret}.${process.pid}.tmp`;
  writeFileSync(tmp, `${secret}\n`, { mode: 0o600 });
  renameSync(tmp, paths.secret);
  return secret;
}

/** Removes what this owner left in `<home>/run` (the lock goes with the brain). */
export function clearRunFolder(home: string): void {
  const paths = homePaths(home);
  rmSync(paths.socket, { force: true });
  rmSync(paths.secret, { force: true });
  rmSync(paths.hookPort, { force: true });
}
