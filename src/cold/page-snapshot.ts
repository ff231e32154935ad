import { closeSync, fstatSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { PageIndex, PageRecord } from '../context/page-index.js';
import { filingWords } from './snapshot-keys.js';

/**
 * The page-index snapshot: every live page's record, filed in hash buckets by the words it can be
 * found by, so a process that has not opened the database can rebuild just the part of the page
 * index a conversation could touch. It reads a fixed-size header and the few buckets of the
 * conversation's words, so its cost does not grow with the brain.
 *
 * Layout: `MAGIC`, a uint32 header length, the header (JSON), then `buckets + 1` uint32 offsets
 * (relative to the data start), then the buckets, each a JSON array of
 * `[word, source_id, slug, title, aliases, synopsis, flags]` rows.
 */
const MAGIC = Buffer.from('BSPAGES1');
const FORMAT = 1;

export interface SnapshotHeader {
  v: number;
  /** The log position of the pages projection the snapshot reflects. */
  position: number;
  pages: number;
  buckets: number;
  written_at: string;
}

type Row = [word: string, sourceId: string, slug: string, title: string, aliases: string[], synopsis: string, flags: number];

/** FNV-1a over UTF-16 code units: stable across processes and versions of Node. */
function bucketOf(word: string, buckets: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & (buckets - 1);
}

function bucketCount(entries: number): number {
  let n = 1024;
  while (n < entries && n < 1 << 20) n <<= 1;
  return n;
}

function allRecords(index: PageIndex): PageRecord[] {
  const out: PageRecord[] = [];
  for (const id of index.sourceIds()) for (const rec of index.source(id)!.pages.values()) out.push(rec);
  return out;
}

/** The snapshot file's bytes for `index` at log `position`. */
function encodeSnapshot(index: PageIndex, position: number, now: Date): Buffer {
  const records = allRecords(index);
  const filed = filingWords(records);
  let entries = 0;
  for (const words of filed) entries += words.length;
  const buckets = bucketCount(entries);
  const rows: Row[][] = Array.from({ length: buckets }, () => []);
  records.forEach((rec, i) => {
    for (const word of filed[i]!) {
      rows[bucketOf(word, buckets)]!.push([word, rec.sourceId, rec.slug, rec.title, [...rec.aliases], rec.synopsis, rec.flagBits]);
    }
  });
  const header: SnapshotHeader = { v: FORMAT, position, pages: records.length, buckets, written_at: now.toISOString() };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const blocks = rows.map((r) => (r.length === 0 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(r))));
  const offsets = Buffer.alloc(4 * (buckets + 1));
  let at = 0;
  blocks.forEach((b, i) => {
    offsets.writeUInt32LE(at, 4 * i);
    at += b.length;
  });
  offsets.writeUInt32LE(at, 4 * buckets);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(headerBytes.length);
  return Buffer.concat([MAGIC, len, headerBytes, offsets, ...blocks]);
}

/** Writes the snapshot whole (temporary file, then rename), owner-only. */
export function writeSnapshot(path: string, index: PageIndex, position: number, now: Date): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, encodeSnapshot(index, position, now), { mode: 0o600 });
  renameSync(tmp, path);
}

export interface SnapshotLookup {
  header: SnapshotHeader;
  /** A page index holding only the pages filed under the looked-up words. */
  index: PageIndex;
}

function readExactly(fd: number, length: number, position: number, size: number): Buffer {
  if (position + length > size) throw new Error('page snapshot is truncated');
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) throw new Error('page snapshot is truncated');
    got += n;
  }
  return buf;
}

/**
 * The pages of the snapshot at `path` filed under any of `words` (and those filed under `''`),
 * as a page index — a new one, or `into` with them added. Throws when the file is missing,
 * truncated or of another format.
 */
export function lookUpSnapshot(path: string, words: Iterable<string>, options: { gazetteer?: boolean; into?: PageIndex } = {}): SnapshotLookup {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = readExactly(fd, MAGIC.length + 4, 0, size);
    if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a page snapshot');
    const headerLength = head.readUInt32LE(MAGIC.length);
    const header = JSON.parse(readExactly(fd, headerLength, MAGIC.length + 4, size).toString('utf8')) as SnapshotHeader;
    if (header.v !== FORMAT || !Number.isInteger(header.buckets) || header.buckets <= 0) throw new Error('page snapshot of another format');
    const tableAt = MAGIC.length + 4 + headerLength;
    const dataAt = tableAt + 4 * (header.buckets + 1);
    const wanted = new Set<string>(words);
    wanted.add('');
    const buckets = [...new Set([...wanted].map((w) => bucketOf(w, header.buckets)))].sort((a, b) => a - b);
    const index = options.into ?? new PageIndex({ gazetteer: options.gazetteer });
    for (const b of buckets) {
      const span = readExactly(fd, 8, tableAt + 4 * b, size);
      const from = span.readUInt32LE(0);
      const to = span.readUInt32LE(4);
      if (to <= from) continue;
      const rows = JSON.parse(readExactly(fd, to - from, dataAt + from, size).toString('utf8')) as Row[];
      for (const [word, sourceId, slug, title, aliases, synopsis, flags] of rows) {
        if (!wanted.has(word) || index.get(sourceId, slug)) continue;
        index.upsertRecord(new PageRecord(sourceId, slug, title, title.toLowerCase(), aliases, synopsis, flags));
      }
    }
    return { header, index };
  } finally {
    closeSync(fd);
  }
}
