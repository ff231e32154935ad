import { describe, expect, it } from 'vitest';
import { extendSurfaced, surfacedSet } from '../../../src/context/surfaced-slugs.js';

describe('surfaced slugs', () => {
  it('extends in order, each slug once, and returns the same list when nothing is new', () => {
    const a = ['x', 'y'];
    const b = extendSurfaced(a, ['y', 'z', 'w', 'z']);
    expect(b).toEqual(['x', 'y', 'z', 'w']);
    expect(extendSurfaced(b, ['x', 'w'])).toBe(b);
    expect(a).toEqual(['x', 'y']);
  });

  it('a list whose set was taken over by a longer list still answers for its own slugs only', () => {
    const a = ['x'];
    expect(surfacedSet(a).has('x')).toBe(true);
    const b = extendSurfaced(a, ['y']);
    expect([...surfacedSet(b)]).toEqual(['x', 'y']);
    expect(surfacedSet(a).has('y')).toBe(false);
    expect(surfacedSet(a).has('x')).toBe(true);
    // Extending the older list again forks a list of its own; the newer one keeps its slugs.
    const c = extendSurfaced(a, ['z']);
    expect(c).toEqual(['x', 'z']);
    expect(surfacedSet(b).has('z')).toBe(false);
    expect(surfacedSet(c).has('y')).toBe(false);
  });

  it('a list loaded from stored state (no set yet) gets one on first use', () => {
    const stored = JSON.parse('["p/a","p/b"]') as string[];
    expect(surfacedSet(stored).has('p/b')).toBe(true);
    expect(extendSurfaced(stored, ['p/c'])).toEqual(['p/a', 'p/b', 'p/c']);
  });
});
