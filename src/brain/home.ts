import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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

export function ensureHome(home: string): void {
  mkdirSync(join(home, 'run'), { recursive: true, mode: 0o700 });
}
