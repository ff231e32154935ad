import type { Candidate } from './extract.js';

/**
 * Memo of per-turn extraction. A rolling window re-reads the same turn texts on every step;
 * extraction is a pure function of (text, index state, scope, caller), so the candidates of
 * a text are reused while that signature holds. Bounded: least recently used texts go first.
 */
/** Longer texts are not kept: the memo must stay small whatever a turn holds. */
const MAX_CACHED_TEXT = 16_384;

export class TurnCache {
  private readonly bySignature = new Map<string, Map<string, Candidate[]>>();
  private size = 0;

  constructor(private readonly limit = 2048) {}

  get(signature: string, text: string): Candidate[] | undefined {
    const m = this.bySignature.get(signature);
    const hit = m?.get(text);
    if (m && hit) {
      m.delete(text);
      m.set(text, hit);
    }
    return hit;
  }

  set(signature: string, text: string, cands: Candidate[]): void {
    if (text.length > MAX_CACHED_TEXT) return;
    let m = this.bySignature.get(signature);
    if (!m) {
      m = new Map();
      this.bySignature.set(signature, m);
    }
    if (!m.has(text)) this.size++;
    m.set(text, cands);
    while (this.size > this.limit) this.evictOne();
  }

  private evictOne(): void {
    // Oldest signature first (a stale index version or an idle session), then its oldest text.
    for (const [sig, m] of this.bySignature) {
      for (const text of m.keys()) {
        m.delete(text);
        this.size--;
        break;
      }
      if (m.size === 0) this.bySignature.delete(sig);
      return;
    }
  }
}
