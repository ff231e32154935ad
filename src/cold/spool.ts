import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
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
 * Appends every spooled file's events, oldest file first, then removes the file. An entry that
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
  for (const name of names) {
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    const good: Envelope[] = [];
    const bad: SpoolReject[] = [];
    let entries: unknown[];
    try {
      const parsed: unknown = JSON.parse(text);
      entries = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      entries = [];
      bad.push({ where: name, reason: `spool file ${name} is not JSON`, raw: text });
    }
    entries.forEach((raw, i) => {
      const decoded = decodeEvent(raw);
      if (decoded.ok) good.push(decoded.event);
      else bad.push({ where: `${name}#${i}`, reason: decoded.reason, raw: JSON.stringify(raw) ?? String(raw) });
    });
    if (bad.length > 0) await sink.deadLetters(bad);
    if (good.length > 0) await sink.append(good);
    appended += good.length;
    unlinkSync(path);
  }
  return appended;
}
