import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { BrainstreamError } from '../errors.js';

export interface MarkdownFile {
  path: string;
  /** `/`-separated path relative to the scanned folder. */
  relative: string;
}

export interface FolderScan {
  files: MarkdownFile[];
  /** Sub-folders that could not be listed (`relative` ends with `/`), with why. */
  unreadable: { relative: string; reason: string }[];
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const folderReason = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'cannot read the folder: permission denied';
  if (code === 'ENOENT') return 'the folder disappeared before it could be read';
  return `cannot read the folder: ${code ?? (err as Error).message}`;
};

/**
 * Every `*.md` file under `root`, recursively, in a stable order. Names starting with `.` are
 * skipped and symlinks are never followed (a link could leave the folder or loop). A sub-folder
 * that cannot be listed is reported and skipped, so the rest still imports; `root` itself must
 * be a readable folder.
 */
export function scanMarkdownFolder(root: string): FolderScan {
  let rootStat;
  try {
    rootStat = statSync(root);
  } catch {
    throw new BrainstreamError('path_not_found', `no such folder: ${root}`);
  }
  if (!rootStat.isDirectory()) throw new BrainstreamError('not_a_folder', `${root} is not a folder`);
  const scan: FolderScan = { files: [], unreadable: [] };
  const rel = (full: string): string => relative(root, full).split(sep).join('/');
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort(byName);
    } catch (err) {
      if (dir === root) throw new BrainstreamError('folder_unreadable', `${root}: ${folderReason(err)}`);
      scan.unreadable.push({ relative: `${rel(dir)}/`, reason: folderReason(err) });
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) scan.files.push({ path: full, relative: rel(full) });
    }
  };
  walk(root);
  return scan;
}
