import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../streams/lru-map.js';

const keys = (m: LruMap<string, number>, candidates: string[]) => candidates.filter((k) => m.has(k));

describe('LruMap', () => {
  it('forgets the least recently used entries beyond its capacity when trimmed; get and set count as use', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3);
    // Nothing is forgotten before the trim: a batch may hold more sessions than the capacity.
    expect(m.size).toBe(3);
    expect(m.get('a')).toBe(1);
    m.trim();
    expect(keys(m, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    m.set('c', 30);
    m.set('d', 4);
    m.trim();
    expect(keys(m, ['a', 'b', 'c', 'd'])).toEqual(['c', 'd']);
    expect(m.get('c')).toBe(30);
  });

  it('never forgets a pinned entry, even when it is the oldest', () => {
    const m = new LruMap<string, number>(1);
    for (const [k, v] of [['a', 1], ['b', 2], ['c', 3]] as const) m.set(k, v);
    m.trim((k) => k === 'a');
    expect(keys(m, ['a', 'b', 'c'])).toEqual(['a']);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruMap(0)).toThrow('LRU capacity must be a positive integer, got 0');
    expect(() => new LruMap(1.5)).toThrow(RangeError);
  });
});
