import { startNewSegment } from '../core-memory/pressure-state.js';
import type { HookRun } from './user-prompt.js';
import { readPressureState, writePressureState } from './pressure-file.js';
import { readHookStdin, type HookStdin } from './read-hook-stdin.js';

/** `hook compact`: a compaction starts a new segment of the session; no output. */
export async function runCompact(home: string, stdin: HookStdin): Promise<HookRun> {
  const input = (await readHookStdin(undefined, stdin)) ?? {};
  const sessionId = typeof input.session_id === 'string' ? input.session_id : null;
  writePressureState(home, startNewSegment(readPressureState(home), sessionId, new Date()));
  return { stdout: null, heartbeat: { outcome: 'ok' } };
}
