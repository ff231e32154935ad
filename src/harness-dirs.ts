import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The user's home: HOME from `env`, not os.homedir() alone — a command or hook run inside serve
 * for a caller sees the caller's HOME only in its (scoped) environment.
 */
export const userHomeDir = (env: Env = process.env): string => env.HOME || homedir();

/** Claude Code's folder, `~/.claude`. */
export const claudeDir = (env: Env = process.env): string => join(userHomeDir(env), '.claude');

/** Codex's folder: CODEX_HOME, else `~/.codex`. */
export const codexDir = (env: Env = process.env): string => env.CODEX_HOME || join(userHomeDir(env), '.codex');
