import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type HookOutcome = 'ok' | 'degraded' | 'error';

/** One heartbeat line: what happened, never any text or slug. */
export interface HeartbeatEntry {
  ts: string;
  event: string;
  outcome: HookOutcome;
  reason?: string;
  duration_ms: number;
  turns?: number;
  /** Why the prompt hook decided without the transcript (missing, unreadable, outside the harness folder…). */
  transcript?: string;
  core_chars?: number;
  core_revision?: string;
}

const heartbeatPath = (home: string): string => join(home, 'integrations', 'hooks', 'heartbeat.jsonl');

const MAX_BYTES = 512 * 1024;
const KEEP_LINES = 1000;

/** Appends one entry; the file is cut back to its newest lines when it grows past 512 KB. Never throws. */
export function writeHeartbeat(home: string, entry: HeartbeatEntry): void {
  try {
    const path = heartbeatPath(home);
    mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
    appendFileSync(path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    if (statSync(path).size > MAX_BYTES) {
      const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, `${lines.slice(-KEEP_LINES).join('\n')}\n`, { mode: 0o600 });
      renameSync(tmp, path);
    }
  } catch {
    // The heartbeat is diagnostics only: a hook never fails because of it.
  }
}

/** The newest `limit` heartbeat entries, oldest first (unparsable lines skipped). */
export function readHeartbeat(home: string, limit = 200): HeartbeatEntry[] {
  let text: string;
  try {
    text = readFileSync(heartbeatPath(home), 'utf8');
  } catch {
    return [];
  }
  const out: HeartbeatEntry[] = [];
  for (const line of text.split('\n').slice(-limit - 1)) {
    if (line.trim() === '') continue;
    try {
      const e = JSON.parse(line) as HeartbeatEntry;
      if (e && typeof e.event === 'string' && typeof e.outcome === 'string') out.push(e);
    } catch {
      // skipped
    }
  }
  return out.slice(-limit);
}
