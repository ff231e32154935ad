import { readConfigFile } from '../config/config-file.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { startNewSegment } from '../core-memory/pressure-state.js';
import type { HookRun } from './user-prompt.js';
import { memoryDigestOf } from './memory-digest.js';
import { readPressureState, writePressureState } from './pressure-file.js';
import { readHookStdin, type HookStdin } from './read-hook-stdin.js';
import { coreForSession } from './session-core.js';
import { sessionStartCoreFields } from './session-start-beat.js';
import { sessionSourceOf } from './session-source.js';
import { sessionStartText } from './session-start-output.js';

export const SESSION_START_DEADLINE_MS = 1500;

/**
 * `hook session-start`: the core block (unless disabled or suppressed by
 * BRAINSTREAM_CORE=0), its remote-edit notices, then the MEMORY.md digest, as plain text.
 */
export async function runSessionStart(home: string, startedAt: number, stdin: HookStdin, deadlineMs = SESSION_START_DEADLINE_MS): Promise<HookRun> {
  const input = (await readHookStdin(undefined, stdin)) ?? {};
  const sessionId = typeof input.session_id === 'string' ? input.session_id : null;
  if (input.source === 'compact') {
    try {
      writePressureState(home, startNewSegment(readPressureState(home), sessionId, new Date()));
    } catch {
      // A lost segment boundary only delays the next notice.
    }
  }
  let coreWanted = process.env.BRAINSTREAM_CORE !== '0';
  let reason: string | undefined;
  try {
    coreWanted &&= memorySettings(readConfigFile(home)).coreEnabled;
  } catch {
    coreWanted = false;
    reason = 'invalid_config';
  }
  const core = coreWanted ? await coreForSession(home, sessionSourceOf(), startedAt + deadlineMs) : null;
  if (coreWanted && core === null) reason = 'core_unavailable';
  const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : process.cwd();
  const text = sessionStartText({ core: core?.text ?? '', notices: core?.notices ?? [], digest: memoryDigestOf(cwd) });
  return {
    stdout: text === '' ? null : text.replace(/\n$/, ''),
    heartbeat: {
      outcome: reason === undefined ? 'ok' : 'degraded',
      ...(reason ? { reason } : {}),
      ...sessionStartCoreFields(core),
    },
  };
}
