import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BrainstreamError } from '../errors.js';

/**
 * Every `*.md` file under `root`, recursively, in a stable order. Names starting with `.` are
 * skipped and symlinks are never followed (a link could leave the folder or loop).
 */
export function scanMarkdownFolder(root: string): { path: string; relative: string }[] {
  let rootStat;
  try {
    rootStat = statSync(root);
  } catch {
    throw new BrainstreamError('path_not_found', `no such folder: ${root}`);
  }
  if (!rootStat.isDirectory()) throw new BrainstreamError('not_a_folder', `${root} is not a folder`);
  const files: { path: string; relative: string }[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        files.push({ path: full, relative: relative(root, full).split(sep).join('/') });
      }
    }
  };
  walk(root);
  return files;
}
