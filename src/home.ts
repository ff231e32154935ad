import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrainstreamError } from './errors.js';
import { closeToOthers, OPEN_TO_OTHERS } from './owner-only.js';

/** Where a brain keeps its files: `--home`, else BRAINSTREAM_HOME, else ~/.brainstream. */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? (env.BRAINSTREAM_HOME || join(homedir(), '.brainstream')));
}

export const homePaths = (home: string) => ({
  home,
  database: join(home, 'db'),
  config: join(home, 'config.json'),
  run: join(home, 'run'),
  lock: join(home, 'run', 'brain.lock'),
  socket: join(home, 'run', 'serve.sock'),
  secret: join(home, 'run', 'serve.secret'),
  /** `<port> <token>` of serve's fast hook lane (loopback TCP). */
  hookPort: join(home, 'run', 'hook-port'),
  hooks: join(home, 'integrations', 'hooks'),
});


export type HomeAccess =
  | { kind: 'absent' }
  | { kind: 'private' }
  /** Others can get in, and this user owns the folder: it can be closed. */
  | { kind: 'open_ours'; mode: number }
  /** Others can get in, and another user owns it: this process must not use it. */
  | { kind: 'open_theirs'; mode: number; uid: number }
  | { kind: 'not_a_folder' };

/** Who can get into `home`, from its owner and mode. */
export function homeAccess(stat: { isDirectory(): boolean; mode: number; uid: number } | null, uid: number): HomeAccess {
  if (stat === null) return { kind: 'absent' };
  if (!stat.isDirectory()) return { kind: 'not_a_folder' };
  const mode = stat.mode & 0o7777;
  if ((mode & OPEN_TO_OTHERS) === 0) return { kind: 'private' };
  // A sticky folder (/tmp and the like) is shared by design: never close it, refuse it.
  const shared = (mode & 0o1000) !== 0;
  return stat.uid === uid && !shared ? { kind: 'open_ours', mode } : { kind: 'open_theirs', mode, uid: stat.uid };
}

const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

let toldTightened = false;

/**
 * Makes sure no other user can read or write an existing home: a folder this user owns that
 * others can enter is closed (0700, said once on stderr); one another user owns is refused
 * (`home_insecure`). An absent home is left absent.
 */
export function secureExistingHome(home: string, warn: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): void {
  const uid = process.getuid?.() ?? -1;
  const access = homeAccess(statOrNull(home), uid);
  if (access.kind === 'not_a_folder') throw new BrainstreamError('home_insecure', `${home} is not a folder`);
  if (access.kind === 'open_theirs') {
    throw new BrainstreamError(
      'home_insecure',
      `other users can get into ${home} (mode ${octal(access.mode)}, owner uid ${access.uid}) and it is not yours to close: use a home only you can open (chmod 700 by its owner, or another --home)`,
      { home, mode: octal(access.mode), uid: access.uid },
    );
  }
  if (access.kind === 'open_ours') {
    chmodSync(home, 0o700);
    // Files made before (a database's log files were 0666) stay closed even if the folder is reopened.
    closeToOthers(home);
    if (!toldTightened) {
      toldTightened = true;
      warn(`brainstream: note: ${home} was open to other users (mode ${octal(access.mode)}); it is now 0700`);
    }
  }
}

/** Creates the home owner-only (or closes an existing one, see secureExistingHome). */
export function ensureHome(home: string): void {
  secureExistingHome(home);
  mkdirSync(join(home, 'run'), { recursive: true, mode: 0o700 });
}
