import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const TRANSCRIPT_TAIL_BYTES = 2 * 1024 * 1024;

/**
 * The newest `maxBytes` of a JSONL file, cut to whole lines (a line cut by the window's start is
 * dropped). Kept as bytes: the scan decodes only the lines it needs. Opened without following symlinks.
 */
export function readTranscriptTail(path: string, maxBytes = TRANSCRIPT_TAIL_BYTES): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let buf: Buffer;
  let start: number;
  try {
    const size = fstatSync(fd).size;
    start = Math.max(0, size - maxBytes);
    buf = Buffer.allocUnsafe(size - start);
    let read = 0;
    while (read < buf.length) {
      const n = readSync(fd, buf, read, buf.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    buf = buf.subarray(0, read);
  } finally {
    closeSync(fd);
  }
  if (start === 0) return buf;
  const nl = buf.indexOf(0x0a);
  return nl < 0 ? buf.subarray(buf.length) : buf.subarray(nl + 1);
}

/** Parses one JSONL line; null for a line being written right now, or one that is not an object. */
export function parseLine(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
