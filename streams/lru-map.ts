/**
 * A Map that remembers the order of use: `get` and `set` make an entry the most recent, and
 * `trim` forgets the least recently used ones beyond the capacity. Bounds what a long-running
 * processor keeps in memory per session.
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`LRU capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
  }

  /** Forgets least recently used entries until the capacity holds, never one `pinned` keeps. */
  trim(pinned: (key: K) => boolean = () => false): void {
    if (this.entries.size <= this.capacity) return;
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.capacity) return;
      if (!pinned(key)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
