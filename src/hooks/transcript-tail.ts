import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export const TRANSCRIPT_TAIL_BYTES = 2 * 1024 * 1024;

/**
 * The JSON objects of the newest `maxBytes` of a JSONL file, oldest first. A line cut by the
 * window's start is dropped; unparsable lines are skipped. Opened without following symlinks.
 */
export function readTranscriptTail(path: string, maxBytes = TRANSCRIPT_TAIL_BYTES): Record<string, unknown>[] {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  let buf: Buffer;
  let start: number;
  try {
    const size = fstatSync(fd).size;
    start = Math.max(0, size - maxBytes);
    buf = Buffer.alloc(size - start);
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
  let from = 0;
  if (start > 0) {
    const nl = buf.indexOf(0x0a);
    from = nl < 0 ? buf.length : nl + 1;
  }
  const out: Record<string, unknown>[] = [];
  for (const line of buf.subarray(from).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) out.push(value as Record<string, unknown>);
    } catch {
      // A line being written right now, or not JSON: skipped.
    }
  }
  return out;
}
