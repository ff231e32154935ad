import { describe, expect, it } from 'vitest';
import { aliasEntries } from '../../../src/context/aliases.js';
import { PageIndex } from '../../../src/context/page-index.js';
import { volunteer } from '../../../src/context/volunteer.js';
import { page, user } from './helpers.js';

const slugs = (index: PageIndex, text: string, scope = ['default']): string[] =>
  volunteer([user(text)], index, { scope }).map((p) => p.slug);

describe('alias entries', () => {
  it('list, string or comma-separated string; entries trimmed, empties and non-strings dropped', () => {
    expect(aliasEntries(['Swami', ' swami ', '', 'Big  Boss'])).toEqual(['Swami', 'swami', 'Big  Boss']);
    expect(aliasEntries('Swami')).toEqual(['Swami']);
    expect(aliasEntries('Swami, SW , ,"Boss"')).toEqual(['Swami', 'SW', '"Boss"']);
    expect(aliasEntries(null)).toEqual([]);
    expect(aliasEntries({ a: 1 })).toEqual([]);
    expect(aliasEntries(['ok', 3, null])).toEqual(['ok']);
  });

  it('a declared alias matches whatever its case and spacing', () => {
    const index = new PageIndex();
    index.upsert(page('people/swami-x', { title: 'Swami X', aliases: [' big  BOSS '] }));
    expect(slugs(index, 'met Big Boss')).toEqual(['people/swami-x']);
  });
});

describe('PageIndex', () => {
  it('upsert replaces every old key of the page', () => {
    const index = new PageIndex();
    index.upsert(page('people/swami-x', { title: 'Swami X', aliases: ['Swami'] }));
    expect(slugs(index, 'met Swami')).toEqual(['people/swami-x']);
    index.upsert(page('people/swami-x', { title: 'Sam Y', aliases: ['Sammy'] }));
    expect(index.size).toBe(1);
    expect(slugs(index, 'met Swami')).toEqual([]);
    expect(slugs(index, 'met Swami X')).toEqual([]);
    expect(slugs(index, 'met Sammy')).toEqual(['people/swami-x']);
    expect(slugs(index, 'met Sam Y')).toEqual(['people/swami-x']);
  });

  it('remove deletes the page and its keys; a missing page is a no-op', () => {
    const index = new PageIndex();
    index.upsert(page('people/swami-x', { title: 'Swami X', aliases: 'Swami' }));
    expect(index.remove('default', 'people/swami-x')).toBe(true);
    expect(index.remove('default', 'people/swami-x')).toBe(false);
    expect(index.remove('nope', 'x')).toBe(false);
    expect(index.size).toBe(0);
    expect(slugs(index, 'met Swami X and Swami')).toEqual([]);
  });

  it('changing the type or the visibility updates the surname and privacy facts', () => {
    const index = new PageIndex();
    index.upsert(page('x/ronan', { title: 'Ronan Galewright', type: 'company' }));
    expect(slugs(index, 'Did Galewright call?')).toEqual([]);
    index.upsert(page('x/ronan', { title: 'Ronan Galewright', type: 'person', visibility: 'private' }));
    expect(slugs(index, 'Did Galewright call?')).toEqual(['x/ronan']);
    expect(volunteer([user('Did Galewright call?')], index, { scope: ['default'], remote: true })).toEqual([]);
  });

  it('keeps the record small and ready: lower title, tail, surname, synopsis', () => {
    const index = new PageIndex();
    index.upsert(page('people/ronan-galewright', { title: 'Ronan Galewright', body: 'Ronan invests. More text.' }));
    const rec = index.get('default', 'people/ronan-galewright');
    expect(rec).toMatchObject({ lowerTitle: 'ronan galewright', tail: 'ronan-galewright', surname: 'galewright', synopsis: 'Ronan invests.' });
    expect(rec?.person).toBe(true);
    expect(rec?.private).toBe(false);
  });

  it('pages without a title or slug are ignored', () => {
    const index = new PageIndex();
    index.upsert(page('x', { title: '' }));
    index.upsert(page('', { title: 'X' }));
    expect(index.size).toBe(0);
  });

  it('crowded keys stay correct past the small-array size', () => {
    const index = new PageIndex();
    for (let i = 0; i < 40; i++) index.upsert(page(`notes/n${i}/index`, { title: 'Index Page', aliases: ['shared'] }));
    expect(volunteer([user('the Index Page')], index, { scope: ['default'], maxPages: 5 })).toHaveLength(5);
    for (let i = 0; i < 39; i++) index.remove('default', `notes/n${i}/index`);
    // One page left: the alias is unique again.
    expect(slugs(index, 'ask shared')).toEqual(['notes/n39/index']);
  });

  it('sources are separate: the same slug may live in several', () => {
    const index = new PageIndex();
    index.upsert(page('people/a', { title: 'Alice Example' }));
    index.upsert(page('people/a', { title: 'Alice Example', source: 'team' }));
    expect(index.size).toBe(2);
    expect(index.sourceIds()).toEqual(['default', 'team']);
    expect(volunteer([user('Alice Example')], index, { scope: ['team'] }).map((p) => p.source_id)).toEqual(['team']);
  });
});
