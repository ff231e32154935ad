import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export const MAX_PAGE_FILE_BYTES = 5 * 1024 * 1024;

export type PageFileRead = { ok: true; text: string; hash: string } | { ok: false; reason: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads one page file, refusing what cannot be a markdown page: too large, binary, not UTF-8. */
export function readPageFile(path: string): PageFileRead {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_PAGE_FILE_BYTES) return { ok: false, reason: `file is ${size} bytes, over the 5 MB limit` };
    const bytes = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    const data = bytes.subarray(0, read);
    if (data.includes(0)) return { ok: false, reason: 'binary file (contains NUL bytes)' };
    let text: string;
    try {
      text = utf8.decode(data);
    } catch {
      return { ok: false, reason: 'binary file (not valid UTF-8)' };
    }
    return { ok: true, text, hash: hashBytes(data) };
  } finally {
    closeSync(fd);
  }
}

export const hashBytes = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
