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
  /**
   * What could not be read, with why: sub-folders that could not be listed (`relative` ends
   * with `/`) and files or folders whose names are not UTF-8 (shown with U+FFFD for the bad bytes).
   */
  unreadable: { relative: string; reason: string }[];
}

type Entry = Dirent<Buffer>;

const byName = (a: Entry, b: Entry): number => Buffer.compare(a.name, b.name);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A name from the file system as text; null when its bytes are not UTF-8 (no text names them). */
function nameText(name: Buffer): string | null {
  try {
    return utf8.decode(name);
  } catch {
    return null;
  }
}

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
    let entries: Entry[];
    try {
      // Names as bytes: a name that is not UTF-8 read as text would name a file that is not there.
      entries = readdirSync(dir, { withFileTypes: true, encoding: 'buffer' }).sort(byName);
    } catch (err) {
      if (dir === root) throw new BrainstreamError('folder_unreadable', `${root}: ${folderReason(err)}`);
      scan.unreadable.push({ relative: `${rel(dir)}/`, reason: folderReason(err) });
      return;
    }
    for (const entry of entries) {
      const name = nameText(entry.name);
      const shown = name ?? entry.name.toString('utf8');
      if (shown.startsWith('.')) continue;
      const isFolder = entry.isDirectory();
      if (!isFolder && !(entry.isFile() && shown.toLowerCase().endsWith('.md'))) continue;
      if (name === null) {
        const what = isFolder ? 'folder' : 'file';
        scan.unreadable.push({ relative: `${rel(join(dir, shown))}${isFolder ? '/' : ''}`, reason: `the ${what} name is not valid UTF-8: rename the ${what}` });
        continue;
      }
      const full = join(dir, name);
      if (isFolder) walk(full);
      else scan.files.push({ path: full, relative: rel(full) });
    }
  };
  walk(root);
  return scan;
}
