/** The longest a context engine may reuse a core block, so owner edits reach running hosts soon. */
export const MAX_CORE_CACHE_MS = 60_000;

/**
 * A small map whose entries expire `ttlMs` after they were stored (clamped to 0..60 s). Time is
 * passed in, so the expiry rule is a pure decision and tests need no timers.
 */
export class TtlCache<V> {
  readonly ttlMs: number;
  private readonly entries = new Map<string, { value: V; storedAt: number }>();

  constructor(ttlMs: number = MAX_CORE_CACHE_MS) {
    this.ttlMs = Number.isFinite(ttlMs) ? Math.min(MAX_CORE_CACHE_MS, Math.max(0, ttlMs)) : MAX_CORE_CACHE_MS;
  }

  /** The value stored under `key`, unless it is `ttlMs` old or older at `now`. */
  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (now - entry.storedAt >= this.ttlMs || now < entry.storedAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` at `now`; expired entries of other keys are dropped (sessions come and go). */
  set(key: string, value: V, now: number): void {
    for (const [k, e] of this.entries) if (now - e.storedAt >= this.ttlMs) this.entries.delete(k);
    this.entries.set(key, { value, storedAt: now });
  }

  get size(): number {
    return this.entries.size;
  }
}
