import { readConfigFile } from '../config/config-file.js';
import { decidePressureNotice } from '../core-memory/pressure-decision.js';
import type { PressureUsage } from '../core-memory/pressure-notice.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { usageFromTranscript } from '../core-memory/transcript-usage.js';
import { readPressureState, writePressureState } from './pressure-file.js';

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);

/** `context_usage` as the harness sent it, or null when it is absent or unusable. */
function harnessUsage(raw: unknown): PressureUsage | null {
  if (raw === null || typeof raw !== 'object') return null;
  const u = raw as Record<string, unknown>;
  const used = num(u.used_tokens);
  if (used === null) return null;
  return { used_tokens: used, last_turn_tokens: num(u.last_turn_tokens) ?? 0, window_tokens: num(u.window_tokens), compaction_point_tokens: num(u.compaction_point_tokens) };
}

/**
 * The save-before-compaction notice for this prompt, or null. Usage comes
 * from the harness, else from the transcript; the segment state is updated when it fires.
 */
export function hookPressureNotice(home: string, input: Record<string, unknown>, entries: readonly unknown[], now: Date): string | null {
  const settings = memorySettings(readConfigFile(home));
  const usage = harnessUsage(input.context_usage) ?? usageFromTranscript(entries);
  const state = readPressureState(home);
  const decision = decidePressureNotice({
    settings: {
      enabled: settings.pressureEnabled,
      warnRatio: settings.warnRatio,
      contextWindow: settings.contextWindow,
      policy: { visibility: settings.captureVisibility, ttl: settings.captureTtl, exclude: settings.captureExclude },
    },
    rememberCallable: input.remember_callable !== false,
    usage,
    sessionId: typeof input.session_id === 'string' ? input.session_id : null,
    state,
    now,
  });
  if (decision.fire) writePressureState(home, decision.state);
  return decision.text;
}
