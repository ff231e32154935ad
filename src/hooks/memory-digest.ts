import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MAX_MEMORY_FILE_BYTES = 512 * 1024;
const MAX_DIGEST_BYTES = 3072;
const DIGEST_SECTIONS = new Set(['standing rules', 'open commitments', 'active context']);
const HEADING = /^#{1,3}\s+(.+?)\s*$/;

/** Cuts to `bytes` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, bytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= bytes) return text;
  let end = bytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/**
 * The MEMORY.md digest: every line of the sections headed "standing
 * rules", "open commitments" or "active context" (heading included, up to the next heading);
 * "" when there are none. Over 3 072 bytes it is cut to 3 070 and ends with `…`.
 */
export function memoryDigest(markdown: string): string {
  const kept: string[] = [];
  let keeping = false;
  for (const line of markdown.replace(/\r\n/g, '\n').split('\n')) {
    const h = HEADING.exec(line);
    if (h) keeping = DIGEST_SECTIONS.has(h[1].toLowerCase());
    if (keeping) kept.push(line);
  }
  if (kept.length === 0) return '';
  const text = `From MEMORY.md:\n${kept.join('\n')}`.trim();
  return Buffer.byteLength(text, 'utf8') > MAX_DIGEST_BYTES ? `${cutUtf8(text, MAX_DIGEST_BYTES - 2)}…` : text;
}

/** The digest of `<cwd>/MEMORY.md`; "" when it is missing, not a file or over 512 KB. */
export function memoryDigestOf(cwd: string): string {
  try {
    const path = join(cwd, 'MEMORY.md');
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_MEMORY_FILE_BYTES) return '';
    return memoryDigest(readFileSync(path, 'utf8'));
  } catch {
    return '';
  }
}
