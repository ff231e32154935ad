import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

const BLOCK = 512;

/** Thrown for an archive this reader does not handle; the caller falls back to creating the database. */
export class UnsupportedArchiveError extends Error {}

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

const octal = (header: Buffer, offset: number, length: number): number => parseInt(field(header, offset, length).trim() || '0', 8);

/** A member name made relative to `root`; one that would leave it is refused. */
function safePath(root: string, name: string): string {
  const relative = normalize(name.replace(/^\/+/, ''));
  if (relative === '.' || relative === '') return root;
  if (relative.split(sep).includes('..')) throw new UnsupportedArchiveError(`archive member escapes its folder: ${name}`);
  return join(root, relative);
}

/** The file being written: its descriptor, bytes still to come, and the padding after them. */
interface OpenMember {
  fd: number;
  remaining: number;
  padding: number;
}

/**
 * Writes the regular files and folders of a ustar archive, read as a stream of chunks, under
 * `root` — a chunk at a time, so memory stays flat whatever the archive holds. Only what a PGlite
 * data directory dump holds is accepted (files, folders, names in the ustar name/prefix fields);
 * anything else (links, long-name extensions) is refused rather than guessed at.
 */
export async function extractTar(chunks: AsyncIterable<Buffer>, root: string): Promise<void> {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  let pending: Buffer = Buffer.alloc(0);
  let member: OpenMember | null = null;
  let skip = 0;
  let ended = false;
  try {
    for await (const chunk of chunks) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (!ended) {
        if (member) {
          const n = Math.min(member.remaining, pending.length);
          if (n > 0) writeSync(member.fd, pending, 0, n);
          pending = pending.subarray(n);
          member.remaining -= n;
          if (member.remaining > 0) break;
          closeSync(member.fd);
          skip = member.padding;
          member = null;
        }
        if (skip > 0) {
          const n = Math.min(skip, pending.length);
          pending = pending.subarray(n);
          skip -= n;
          if (skip > 0) break;
        }
        if (pending.length < BLOCK) break;
        const header = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (header.every((b) => b === 0)) {
          ended = true;
          break;
        }
        member = startMember(header, root);
      }
    }
  } finally {
    if (member) closeSync(member.fd);
  }
  if (member || skip > 0) throw new UnsupportedArchiveError('archive ends inside a member');
}

function startMember(header: Buffer, root: string): OpenMember | null {
  if (field(header, 257, 5) !== 'ustar') throw new UnsupportedArchiveError('not a ustar archive');
  const prefix = field(header, 345, 155);
  const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
  const size = octal(header, 124, 12);
  const mode = octal(header, 100, 8) & 0o777;
  const type = String.fromCharCode(header[156]!);
  const target = safePath(root, name);
  if (type === '5') {
    mkdirSync(target, { recursive: true, mode: mode || 0o700 });
    return null;
  }
  if (type !== '0' && type !== '\0') throw new UnsupportedArchiveError(`unsupported archive member type ${JSON.stringify(type)} (${name})`);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const fd = openSync(target, 'w', mode || 0o600);
  const padding = (BLOCK - (size % BLOCK)) % BLOCK;
  if (size > 0) return { fd, remaining: size, padding };
  closeSync(fd);
  return null;
}
