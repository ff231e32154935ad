import { describe, expect, it } from 'vitest';
import { aliasEntries } from '../../../src/context/aliases.js';
import { volunteer } from '../../../src/context/volunteer.js';
import type { Page } from '../../../src/pages/page.js';
import { indexOf, page, user } from './helpers.js';

// What push-context reads of a page. Each test fails if its rule is broken.

const withTimeline = (slug: string, title: string, compiled_truth: string, timeline: string): Page => ({
  source_id: 'default',
  slug,
  title,
  type: 'person',
  frontmatter: {},
  compiled_truth,
  timeline,
});

describe('aliases are a list of strings, a string, or a comma-separated string', () => {
  it('list entries that are not strings declare nothing (YAML keeps numbers numbers)', () => {
    expect(aliasEntries(['Bob', 1984, 2.5, true, null, { name: 'x' }, ['nested']])).toEqual(['Bob']);
    expect(aliasEntries([1984, ' Nineteen '])).toEqual(['Nineteen']);
  });

  it('a value of another type declares no alias at all', () => {
    for (const value of [1984, true, { first: 'saoirse' }, undefined]) expect(aliasEntries(value)).toEqual([]);
  });

  it('the index holds only the string entries of a page', () => {
    const index = indexOf({ 'books/1984': { title: 'Nineteen Eighty-Four', aliases: [1984, 'Orwell Novel'] } }, false);
    expect(index.get('default', 'books/1984')?.aliases).toEqual(['Orwell Novel']);
  });
});

describe('a page is private iff frontmatter visibility is exactly "private"', () => {
  const remote = (visibility: unknown): string[] => {
    const index = indexOf([{ ...page('people/pat-quill', { title: 'Pat Quill' }), frontmatter: { visibility } }], false);
    return volunteer([user('ask Pat Quill')], index, { scope: ['default'], remote: true, gazetteer: false }).map((p) => p.slug);
  };

  it('"private" hides the page from remote callers', () => {
    expect(remote('private')).toEqual([]);
  });

  it('any other spelling or type is not private: remote callers get the page', () => {
    for (const visibility of ['Private', 'PRIVATE', ' private', 'private ', 'secret', true, ['private']]) {
      expect(remote(visibility), JSON.stringify(visibility)).toEqual(['people/pat-quill']);
    }
  });
});

describe.each([false, true])('only compiled truth is read (gazetteer %s)', (gazetteer) => {
  const run = (pages: Page[], text: string) => volunteer([user(text)], indexOf(pages, gazetteer), { scope: ['default'], gazetteer, minConfidence: 0 });

  it('timeline text never becomes the synopsis', () => {
    const [p] = run([withTimeline('people/pat-quill', 'Pat Quill', '', 'Pat Quill moved to Lisbon in 2024.')], 'ask Pat Quill');
    expect(p.synopsis).toBe('');
    const [q] = run([withTimeline('people/pat-quill', 'Pat Quill', '# Pat Quill\n<!-- notes -->', '- 2024 moved to Lisbon.')], 'ask Pat Quill');
    expect(q.synopsis).toBe('');
    const [r] = run([withTimeline('people/pat-quill', 'Pat Quill', 'Pat runs the studio.', 'Pat moved to Lisbon.')], 'ask Pat Quill');
    expect(r.synopsis).toBe('Pat runs the studio.');
  });

  it('names written only in the timeline never resolve the page', () => {
    const pages = [withTimeline('people/pat-quill', 'Pat Quill', 'Pat runs the studio.', '- 2024 met Ronan Galewright and @ronan.')];
    expect(run(pages, 'what about Ronan Galewright and @ronan?')).toEqual([]);
  });
});
