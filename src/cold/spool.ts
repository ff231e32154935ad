import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { decodeEvent, type Envelope } from '../domain/events.js';
import { coldPaths } from './cold-files.js';

/**
 * The hand-off of events decided on the cold path: each call writes its events as one file
 * (whole, by rename) under `<home>/run/spool/`; the next process to open the brain appends them
 * to the log and removes the file. Event ids are fixed when the file is written and the log
 * ignores an id it already holds, so a file applied twice (a crash between append and removal)
 * is applied once.
 */
const SPOOL_FILE = /^\d{13}-[0-9a-f-]{36}\.json$/u;

export function spoolEvents(home: string, events: readonly Envelope[], now = Date.now()): void {
  if (events.length === 0) return;
  const dir = coldPaths(home).spool;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `${String(now).padStart(13, '0')}-${randomUUID()}.json`;
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify(events), { mode: 0o600 });
  renameSync(tmp, join(dir, name));
}

/** A spooled entry that could not be appended: `where` is `<file>#<entry>`. */
export interface SpoolReject {
  where: string;
  reason: string;
  raw: string;
}

export interface SpoolSink {
  append(events: readonly Envelope[]): Promise<void>;
  deadLetters(rejects: readonly SpoolReject[]): Promise<void>;
}

/**
 * Appends every spooled file's events, oldest file first, then removes the files. An entry that
 * does not decode becomes a dead letter (origin `spool`) and the rest still goes in; a file
 * that is not JSON is kept whole as one dead letter. Returns the number of events appended.
 */
export async function applySpool(home: string, sink: SpoolSink): Promise<number> {
  const dir = coldPaths(home).spool;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => SPOOL_FILE.test(n)).sort();
  } catch {
    return 0;
  }
  let appended = 0;
  // Files are taken in groups of about APPEND_BATCH events: one append (one commit) per group, not per file.
  for (let from = 0; from < names.length; ) {
    const group: string[] = [];
    const good: Envelope[] = [];
    const bad: SpoolReject[] = [];
    while (from < names.length && (group.length === 0 || good.length < APPEND_BATCH)) {
      const name = names[from++]!;
      group.push(name);
      readSpoolFile(join(dir, name), name, good, bad);
    }
    if (bad.length > 0) await sink.deadLetters(bad);
    if (good.length > 0) await sink.append(good);
    appended += good.length;
    for (const name of group) rmSync(join(dir, name), { force: true });
  }
  return appended;
}

/** Events appended at once from the spool (a long `watch` that began on the cold path leaves many files). */
const APPEND_BATCH = 5_000;

/** One spool file's entries, sorted into those that decode and those that become dead letters. */
function readSpoolFile(path: string, name: string, good: Envelope[], bad: SpoolReject[]): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return; // taken meanwhile by another hand-off
  }
  let entries: unknown[];
  try {
    const parsed: unknown = JSON.parse(text);
    entries = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    bad.push({ where: name, reason: `spool file ${name} is not JSON`, raw: text });
    return;
  }
  entries.forEach((raw, i) => {
    const decoded = decodeEvent(raw);
    if (decoded.ok) good.push(decoded.event);
    else bad.push({ where: `${name}#${i}`, reason: decoded.reason, raw: JSON.stringify(raw) ?? String(raw) });
  });
}
