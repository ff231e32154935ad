import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyPressureState, parsePressureState, type PressureState } from '../core-memory/pressure-state.js';

/** Compaction-segment state lives beside the heartbeat, so the notice needs no running serve. */
const pressurePath = (home: string): string => join(home, 'integrations', 'hooks', 'pressure.json');

export function readPressureState(home: string): PressureState {
  try {
    return parsePressureState(JSON.parse(readFileSync(pressurePath(home), 'utf8')));
  } catch {
    return emptyPressureState();
  }
}

/** Atomic write (temp file + rename): a concurrent hook never reads half a file. */
export function writePressureState(home: string, state: PressureState): void {
  const path = pressurePath(home);
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}
