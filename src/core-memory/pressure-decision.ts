import {
  pressureNoticeText,
  resolveContextWindow,
  shouldFirePressureNotice,
  type CapturePolicy,
  type PressureUsage,
} from './pressure-notice.js';
import { hasFiredInSegment, markFired, pruneIdleSessions, type PressureState } from './pressure-state.js';

export interface PressureDecisionInput {
  settings: { enabled: boolean; warnRatio: number; contextWindow: number | null; policy: CapturePolicy };
  rememberCallable: boolean;
  /** Harness usage, or usage derived from the transcript; null when unknown (never fires). */
  usage: PressureUsage | null;
  sessionId: string | null | undefined;
  state: PressureState;
  now: Date;
}

export interface PressureDecision {
  fire: boolean;
  /** The notice text when it fires, else null. */
  text: string | null;
  /** The state to store (idle sessions pruned; fired recorded). */
  state: PressureState;
}

/** `hook user-prompt`: decide the save-before-compaction notice for this prompt. */
export function decidePressureNotice(input: PressureDecisionInput): PressureDecision {
  const state = pruneIdleSessions(input.state, input.now);
  const { settings, usage } = input;
  if (usage === null) return { fire: false, text: null, state };
  const fire = shouldFirePressureNotice({
    enabled: settings.enabled,
    rememberCallable: input.rememberCallable,
    firedInSegment: hasFiredInSegment(state, input.sessionId),
    warnRatio: settings.warnRatio,
    configuredWindow: settings.contextWindow,
    usage,
  });
  if (!fire) return { fire, text: null, state };
  const window = resolveContextWindow(settings.contextWindow, usage.window_tokens);
  return {
    fire,
    text: pressureNoticeText(usage.used_tokens, window, settings.policy),
    state: markFired(state, input.sessionId, input.now),
  };
}
