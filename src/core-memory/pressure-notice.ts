const DEFAULT_CONTEXT_WINDOW = 200_000;

export interface PressureUsage {
  used_tokens: number;
  last_turn_tokens: number;
  /** Harness-reported window, if any. */
  window_tokens?: number | null;
  /** Harness-reported automatic compaction point, if any. */
  compaction_point_tokens?: number | null;
}

export interface PressureQuestion {
  /** Effective `memory.pressure.enabled`. */
  enabled: boolean;
  /** The hook registration exposes `remember` with write scope (default true). */
  rememberCallable: boolean;
  /** The notice already fired in the current compaction segment. */
  firedInSegment: boolean;
  /** Effective `memory.pressure.warn_ratio`. */
  warnRatio: number;
  /** Effective `memory.pressure.context_window` (null = unset). */
  configuredWindow: number | null;
  usage: PressureUsage;
}

const positive = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

/** Window: configured, else harness-reported, else 200 000 tokens. */
export const resolveContextWindow = (configured: number | null, reported: number | null | undefined): number =>
  positive(configured) ? configured : positive(reported) ? reported : DEFAULT_CONTEXT_WINDOW;

/** Compaction point: harness-reported (it is harness-specific), else the window. */
export const resolveCompactionPoint = (reported: number | null | undefined, window: number): number =>
  positive(reported) ? reported : window;

/**
 * Fires iff enabled, `remember` is callable, not yet fired in this segment, and
 * `used ≥ warn_ratio × window` or `used + 2 × last_turn ≥ compaction_point` (two more
 * turns like the last one would reach compaction).
 */
export function shouldFirePressureNotice(q: PressureQuestion): boolean {
  if (!q.enabled || !q.rememberCallable || q.firedInSegment) return false;
  const window = resolveContextWindow(q.configuredWindow, q.usage.window_tokens);
  const compactionPoint = resolveCompactionPoint(q.usage.compaction_point_tokens, window);
  const { used_tokens: used, last_turn_tokens: lastTurn } = q.usage;
  return used >= q.warnRatio * window || used + 2 * lastTurn >= compactionPoint;
}

export interface CapturePolicy {
  visibility: 'world' | 'private';
  /** A `remember` ttl, or null for none. */
  ttl: string | null;
  exclude: string;
}

/** The notice text; it states the capture policy, so it never suggests `world` under `private`. */
export function pressureNoticeText(usedTokens: number, window: number, policy: CapturePolicy): string {
  const percent = Math.round((100 * usedTokens) / window);
  return (
    `Context is ~${percent}% full; compaction is near. Save anything that must survive it now: ` +
    `one remember call with items (up to 20 facts, each with provenance). ` +
    `Capture policy: visibility ${policy.visibility}, ttl ${policy.ttl ?? 'none'}; never save ${policy.exclude}.`
  );
}
