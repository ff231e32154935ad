import { describe, expect, it } from 'vitest';
import { containsWholeSlug, containsWholeTitle } from '../../../src/context/suppression.js';

describe('whole-slug suppression', () => {
  it.each<[string, string, boolean]>([
    ['people/alice', 'people/alice', true],
    ['people/alice', 'people/al', false],
    ['see `people/alice-example`', 'people/alice-example', true],
    ['…people/alice-example.', 'people/alice-example', true],
    ['people/alice-example.md', 'people/alice-example', false],
    ['xpeople/alice-example', 'people/alice-example', false],
    ['team/people/alice-example', 'people/alice-example', false],
    ['_people/alice-example', 'people/alice-example', false],
    ['people/alice-example-2', 'people/alice-example', false],
    ['people/alice-example_x', 'people/alice-example', false],
    ['people/alice-example/notes', 'people/alice-example', false],
    ['(people/alice-example)', 'people/alice-example', true],
    ['a.people/alice-example', 'people/alice-example', false],
    ['. people/alice-example, people/bob', 'people/bob', true],
    ['people/alice-examplé', 'people/alice-exampl', false],
    ['people/alice-example2 then people/alice-example', 'people/alice-example', true],
    ['', 'people/alice', false],
  ])('%j contains %j → %s', (prior, slug, whole) => {
    expect(containsWholeSlug(prior, slug)).toBe(whole);
  });
});

describe('reflex title suppression (window 1)', () => {
  it('is bounded by ASCII non-word characters or the text ends', () => {
    expect(containsWholeTitle('tell alice example the news', 'alice example')).toBe(true);
    expect(containsWholeTitle('alice example', 'alice example')).toBe(true);
    expect(containsWholeTitle('malice example', 'alice example')).toBe(false);
    expect(containsWholeTitle('alice examples', 'alice example')).toBe(false);
    expect(containsWholeTitle('(alice example)', 'alice example')).toBe(true);
    expect(containsWholeTitle('éalice example', 'alice example')).toBe(true);
  });
});
