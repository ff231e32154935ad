import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';

/** Runs git in `cwd`; null when git is missing or the command fails. */
function git(cwd: string, args: readonly string[]): string | null {
  if (!existsSync(cwd)) return null;
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? r.stdout : null;
}

/** True when git tracks `path` (`git ls-files --error-unmatch`): core never goes into such a file. */
export const isGitTracked = (path: string): boolean => git(dirname(path), ['ls-files', '--error-unmatch', '--', basename(path)]) !== null;

/**
 * Keeps `path` out of git when it lies inside a work tree, through `.git/info/exclude` (local to
 * this clone, so nothing to commit). Returns the exclude file written to, or null outside git.
 */
export function excludeFromGit(path: string): string | null {
  const dir = dirname(path);
  if (git(dir, ['rev-parse', '--is-inside-work-tree'])?.trim() !== 'true') return null;
  const prefix = git(dir, ['rev-parse', '--show-prefix'])?.trim() ?? '';
  const excludeRel = git(dir, ['rev-parse', '--git-path', 'info/exclude'])?.trim();
  if (!excludeRel) return null;
  const exclude = isAbsolute(excludeRel) ? excludeRel : join(dir, excludeRel);
  const entry = `/${prefix}${basename(path)}`;
  const current = existsSync(exclude) ? readFileSync(exclude, 'utf8') : '';
  if (current.split(/\r?\n/).some((l) => l.trim() === entry)) return exclude;
  mkdirSync(dirname(exclude), { recursive: true });
  appendFileSync(exclude, `${current === '' || current.endsWith('\n') ? '' : '\n'}${entry}\n`);
  return exclude;
}
