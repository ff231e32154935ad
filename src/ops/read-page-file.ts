import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export const MAX_PAGE_FILE_BYTES = 5 * 1024 * 1024;

export type PageFileRead = { ok: true; text: string; hash: string; bytes: number } | { ok: false; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether bytes can be page markdown: at most 5 MB, no NUL bytes, valid UTF-8. `what` names
 * the input in the reasons ("file" for import, "stdin" for `page put`).
 */
export function checkPageBytes(data: Uint8Array, what = 'file'): PageFileRead {
  if (data.length > MAX_PAGE_FILE_BYTES) return { ok: false, reason: `${what} is ${data.length} bytes, over the 5 MB limit` };
  if (data.includes(0)) return { ok: false, reason: `binary ${what} (contains NUL bytes)` };
  let text: string;
  try {
    text = utf8.decode(data);
  } catch {
    return { ok: false, reason: `binary ${what} (not valid UTF-8)` };
  }
  return { ok: true, text, hash: hashBytes(data), bytes: data.length };
}

// O_NOFOLLOW: a file swapped for a symlink after the folder scan is still not followed.
// O_NONBLOCK: a file swapped for a FIFO cannot hang the import (no effect on regular files).
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads one page file, refusing what cannot be a markdown page: unreadable, not a regular
 * file, too large, binary, not UTF-8. Never throws: every problem is a reason naming it.
 */
export function readPageFile(path: string): PageFileRead {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    return { ok: false, reason: unreadableReason(err) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not a regular file' };
    // Over the limit by size alone: no need to read 5 MB to refuse it.
    if (stat.size > MAX_PAGE_FILE_BYTES) return { ok: false, reason: `file is ${stat.size} bytes, over the 5 MB limit` };
    const bytes = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const n = readSync(fd, bytes, read, stat.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return checkPageBytes(bytes.subarray(0, read));
  } catch (err) {
    return { ok: false, reason: unreadableReason(err) };
  } finally {
    closeSync(fd);
  }
}

const REASON_BY_CODE: Readonly<Record<string, string>> = {
  EACCES: 'cannot read the file: permission denied',
  EPERM: 'cannot read the file: operation not permitted',
  ENOENT: 'the file disappeared before it could be read',
  ELOOP: 'the file became a symbolic link (links are not followed)',
  EISDIR: 'not a regular file',
  EIO: 'cannot read the file: input/output error',
};

/** A file-system error as a short reason (the file itself is named by the caller's line). */
function unreadableReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code && REASON_BY_CODE[code]) return REASON_BY_CODE[code]!;
  return `cannot read the file: ${code ?? (err instanceof Error ? err.message : String(err))}`;
}

export const hashBytes = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
