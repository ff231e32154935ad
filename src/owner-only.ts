import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Files only their owner may use. The home and everything in it are kept so: other users on the
 * machine must neither read a brain's pages nor write its database.
 */

/** Permission bits that let other users in: group or other may read, write or enter. */
export const OPEN_TO_OTHERS = 0o077;

/** Every file and folder under `dir` (symlinks not followed) that others could use: path and mode. */
export function openEntries(dir: string, limit = Infinity): { path: string; mode: number; uid: number }[] {
  const found: { path: string; mode: number; uid: number }[] = [];
  const uid = process.getuid?.() ?? -1;
  const walk = (at: string): void => {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch {
      return;
    }
    for (const name of names) {
      if (found.length >= limit) return;
      const path = join(at, name);
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      if (st.isSymbolicLink()) continue;
      if ((st.mode & OPEN_TO_OTHERS) !== 0 || st.uid !== uid) found.push({ path, mode: st.mode & 0o7777, uid: st.uid });
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return found;
}

/**
 * Takes group and other bits off everything this user owns under `dir` (the embedded database
 * creates some files 0666 whatever the umask).
 */
export function closeToOthers(dir: string): void {
  const uid = process.getuid?.() ?? -1;
  for (const entry of openEntries(dir)) {
    if (entry.uid !== uid || (entry.mode & OPEN_TO_OTHERS) === 0) continue;
    try {
      chmodSync(entry.path, entry.mode & ~OPEN_TO_OTHERS);
    } catch {
      // Gone meanwhile (the database renames and removes files as it goes).
    }
  }
}
