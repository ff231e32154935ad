import { describe, expect, it } from 'vitest';
import { MAX_CORE_CACHE_MS, TtlCache } from '../../../src/context-engine/ttl-cache.js';

describe('TtlCache (a context engine reuses a core block for at most 60 s)', () => {
  it('answers until the entry is ttl old, then forgets it', () => {
    const cache = new TtlCache<string>(60_000);
    cache.set('s', 'block', 1_000);
    expect(cache.get('s', 1_000)).toBe('block');
    expect(cache.get('s', 60_999)).toBe('block');
    expect(cache.get('s', 61_000)).toBeUndefined();
    expect(cache.get('s', 1_000)).toBeUndefined();
  });

  it('never keeps anything longer than 60 s, whatever it is asked', () => {
    expect(new TtlCache(10 * 60_000).ttlMs).toBe(MAX_CORE_CACHE_MS);
    expect(new TtlCache(Number.POSITIVE_INFINITY).ttlMs).toBe(MAX_CORE_CACHE_MS);
    expect(new TtlCache(Number.NaN).ttlMs).toBe(MAX_CORE_CACHE_MS);
    expect(new TtlCache(-5).ttlMs).toBe(0);
    const none = new TtlCache<string>(0);
    none.set('s', 'block', 5);
    expect(none.get('s', 5)).toBeUndefined();
  });

  it('keys are separate; expired entries of other keys are dropped on the next store', () => {
    const cache = new TtlCache<string>(1_000);
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 500);
    expect([cache.get('a', 900), cache.get('b', 900)]).toEqual(['A', 'B']);
    cache.set('c', 'C', 1_200);
    expect(cache.size).toBe(2);
    expect([cache.get('b', 1_200), cache.get('c', 1_200)]).toEqual(['B', 'C']);
  });

  it('a clock that went backwards is not trusted', () => {
    const cache = new TtlCache<string>(60_000);
    cache.set('s', 'block', 10_000);
    expect(cache.get('s', 9_000)).toBeUndefined();
  });
});
