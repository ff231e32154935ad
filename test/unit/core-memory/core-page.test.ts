import { describe, expect, it } from 'vitest';
import {
  corePriority,
  hasInvalidCorePriority,
  isCorePage,
  isMarkedCore,
  isRenderableCorePage,
  withheldReason,
} from '../../../src/core-memory/core-page.js';

describe('core iff always_load === true', () => {
  it.each([
    [true, true],
    ['true', false],
    ['yes', false],
    [1, false],
    [false, false],
    [null, false],
    [undefined, false],
  ])('always_load %j → %s', (value, core) => {
    const fm = value === undefined ? {} : { always_load: value };
    expect(isMarkedCore(fm)).toBe(core);
    expect(isCorePage({ frontmatter: fm })).toBe(core);
  });

  it('a soft-deleted row is not a core page', () => {
    expect(isCorePage({ frontmatter: { always_load: true }, deleted: true })).toBe(false);
  });
});

describe('core_priority', () => {
  it.each([
    [{}, 100, false],
    [{ core_priority: 10 }, 10, false],
    [{ core_priority: -5.5 }, -5.5, false],
    [{ core_priority: 0 }, 0, false],
    [{ core_priority: '10' }, 100, true],
    [{ core_priority: null }, 100, true],
    [{ core_priority: Infinity }, 100, true],
    [{ core_priority: Number.NaN }, 100, true],
  ])('%j → %d (reported: %s)', (fm, priority, invalid) => {
    expect(corePriority(fm)).toBe(priority);
    expect(hasInvalidCorePriority(fm)).toBe(invalid);
  });
});

describe('renderable core pages', () => {
  it('renders live, non-private, non-quarantined core pages', () => {
    expect(isRenderableCorePage({ frontmatter: { always_load: true } })).toBe(true);
    expect(isRenderableCorePage({ frontmatter: { always_load: true, visibility: 'world' } })).toBe(true);
    expect(isRenderableCorePage({ frontmatter: { always_load: true, quarantine: 'true' } })).toBe(true);
  });

  it('withholds private and quarantined pages, and never renders non-core or deleted ones', () => {
    expect(isRenderableCorePage({ frontmatter: { always_load: true, visibility: 'private' } })).toBe(false);
    expect(isRenderableCorePage({ frontmatter: { always_load: true, quarantine: true } })).toBe(false);
    expect(isRenderableCorePage({ frontmatter: {} })).toBe(false);
    expect(isRenderableCorePage({ frontmatter: { always_load: true }, deleted: true })).toBe(false);
    expect(withheldReason({ frontmatter: { visibility: 'private', quarantine: true } })).toBe('private');
    expect(withheldReason({ frontmatter: { quarantine: true } })).toBe('quarantined');
    expect(withheldReason({ frontmatter: {} })).toBeNull();
  });
});
