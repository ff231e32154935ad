import { describe, expect, it } from 'vitest';
import { tokenize, joinTokens } from '../../../src/context/gazetteer-tokens.js';
import { PageIndex } from '../../../src/context/page-index.js';
import { volunteer, type VolunteerOptions } from '../../../src/context/volunteer.js';
import type { Turn } from '../../../src/context/turn.js';
import { indexOf, page, type PageSpec, user } from './helpers.js';

const hits = (pages: Record<string, PageSpec>, text: string | Turn[], opts: Partial<VolunteerOptions> = {}): string[] =>
  volunteer(typeof text === 'string' ? [user(text)] : text, indexOf(pages), { scope: ['default'], maxPages: 5, ...opts }).map(
    (p) => `${p.slug}:${p.arm}`,
  );
const both = (pages: Record<string, PageSpec>, text: string) => ({
  off: hits(pages, text, { gazetteer: false }),
  on: hits(pages, text, { gazetteer: true }),
});

describe('gazetteer tokens', () => {
  it('normalises possessives, case and hyphens; keeps inner punctuation as a gap code', () => {
    const key = (s: string) => {
      const t = tokenize(s);
      return joinTokens(t, 0, t.count - 1);
    };
    expect(key("McGee's")).toBe('mcgee');
    expect(key('Counter-Strike: Global Offensive')).toBe('counter strike:global offensive');
    expect(key('Counter Strike')).toBe('counter strike');
    expect(key('CS:GO')).toBe('cs:go');
    expect(key('J.K. Rowling')).toBe('j.k.rowling');
    expect(key('“The Hobbit”')).toBe('the hobbit');
    expect(key('Ａｌｉｃｅ Example')).toBe('alice example');
    const t = tokenize('Smith-Jones met California- there');
    expect(t.glued.slice(0, t.count)).toEqual([false, true, false, false, false]);
  });
});

describe('gazetteer pass', () => {
  it('finds titles the run extractor splits: digits, lower-case connectors', () => {
    expect(both({ 'media/cyberpunk-2077': { title: 'Cyberpunk 2077' } }, 'playing a game called "Cyberpunk 2077". Have you?')).toEqual({
      off: [],
      on: ['media/cyberpunk-2077:title'],
    });
    expect(both({ 'media/lotr': { title: 'The Lord of the Rings' } }, 'I watched "The Lord of the Rings" Trilogy!')).toEqual({
      off: [],
      on: ['media/lotr:title'],
    });
    expect(hits({ 'media/got': { title: 'Game of Thrones' } }, 'Harry Potter and Game of Thrones are amazing')).toEqual(['media/got:title']);
  });

  it('an article at the start of a title may be lower-case; capitalised words must stay capitalised', () => {
    expect(hits({ 'media/lotr': { title: 'The Lord of the Rings' } }, 'we saw the Lord of the Rings')).toEqual(['media/lotr:title']);
    expect(hits({ 'media/lotr': { title: 'The Lord of the Rings' } }, 'we saw the lord of the rings')).toEqual([]);
    expect(hits({ 'orgs/summer-sounds': { title: 'Summer Sounds' } }, 'Summer sounds great to me')).toEqual([]);
    expect(hits({ 'orgs/summer-sounds': { title: 'Summer Sounds' } }, 'we saw Summer Sounds play')).toEqual(['orgs/summer-sounds:title']);
  });

  it('possessives against aliases, punctuation inside an alias, trailing hyphens', () => {
    expect(hits({ 'places/mcgees': { title: "McGee's Pub", aliases: ['McGee'] } }, "Went to McGee's Pub crawl")).toEqual(['places/mcgees:title']);
    expect(hits({ 'places/mcgees': { title: 'Irish Bar', aliases: ['McGee'] } }, "Drinks at McGee's Place tonight")).toEqual(['places/mcgees:alias']);
    // The alias itself carries the possessive: the spec strips it from the text only.
    expect(both({ 'places/mcgees': { title: 'Irish Bar', aliases: ["McGee's"] } }, "Drinks at McGee's tonight")).toEqual({
      off: [],
      on: ['places/mcgees:alias'],
    });
    expect(hits({ 'places/mcgees': { title: 'Irish Bar', aliases: ["McGee's"] } }, 'Drinks at McGee tonight')).toEqual(['places/mcgees:alias']);
    expect(both({ 'media/csgo': { title: 'Counter-Strike: Global Offensive', aliases: ['Counter-Strike', 'CS:GO'] } }, 'I usually play CS:GO, but')).toEqual({
      off: [],
      on: ['media/csgo:alias'],
    });
    expect(both({ 'places/california': { title: 'California' } }, 'a vacation we had to California- a gorgeous sunset')).toEqual({
      off: [],
      on: ['places/california:title'],
    });
    expect(both({ 'pets/max': { title: 'Max' } }, "I'm always still thinking about Max- here's a pic")).toEqual({ off: [], on: ['pets/max:title'] });
  });

  it('runs glued across a name', () => {
    expect(both({ 'cars/mustang': { title: 'Ford Mustang' } }, 'the Ford Mustang I found')).toEqual({ off: [], on: ['cars/mustang:title'] });
    expect(both({ 'people/alice-example': { title: 'Alice Example' } }, 'Met Alice Example today')).toEqual({
      off: [],
      on: ['people/alice-example:title'],
    });
  });

  it('same confidences, boosts and rationale as the spec arms', () => {
    const [p] = volunteer([user('I usually play CS:GO')], indexOf({ 'media/csgo': { title: 'Counter-Strike: Global Offensive', aliases: ['CS:GO'] } }), {
      scope: ['default'],
    });
    expect(p).toMatchObject({
      arm: 'alias',
      confidence: 0.9500000000000001,
      display: 'Counter-Strike: Global Offensive',
      rationale: 'alias match "Counter-Strike: Global Offensive"; mentioned in the newest turn',
    });
    const [q] = volunteer([user('the Ford Mustang I found'), user('ok')], indexOf({ 'cars/mustang': { title: 'Ford Mustang' } }), { scope: ['default'] });
    expect(q).toMatchObject({ arm: 'title', confidence: 0.8, display: 'Ford Mustang', rationale: 'exact title match "Ford Mustang"' });
  });

  it('alias uniqueness still applies per source', () => {
    const pages = { 'a/one': { title: 'Irish Bar', aliases: ['CS:GO'] }, 'a/two': { title: 'Other Bar', aliases: ['CS:GO'] } };
    expect(hits(pages, 'I usually play CS:GO')).toEqual([]);
  });

  it('whole words only: no match inside glued compounds or across sentence punctuation', () => {
    expect(hits({ 'people/smith': { title: 'Anna Smith' } }, 'met Anna Smith-Jones yesterday')).toEqual([]);
    expect(hits({ 'notes/ae': { title: 'Alice Example' } }, 'I met Alice. Example sentences follow')).toEqual([]);
    expect(hits({ 'notes/ae': { title: 'Alice Example' } }, 'I met Alice, Example sentences follow')).toEqual([]);
    expect(hits({ 'media/cp': { title: 'Cyberpunk 2077' } }, 'play pre-Cyberpunk 2077 games')).toEqual([]);
    expect(hits({ 'media/cp': { title: 'Cyberpunk 2077' } }, 'play Cyberpunk 2077-style games')).toEqual([]);
    expect(hits({ 'media/cp': { title: 'Cyberpunk 2077' } }, 'play Cyberpunk 2077 - great')).toEqual(['media/cp:title']);
  });

  it('a name inside a longer capitalised run on its right is not that page', () => {
    expect(hits({ 'pets/max': { title: 'Max' }, 'x/luna': { title: 'Lunaria Bay' } }, 'the Max Planck Institute')).toEqual([]);
    expect(hits({ 'pets/max': { title: 'Max' } }, 'I miss Max - Here is a pic')).toEqual(['pets/max:title']);
    expect(hits({ 'cars/mustang': { title: 'Ford Mustang' } }, 'the Ford Mustang I found')).toEqual(['cars/mustang:title']);
    expect(hits({ 'people/john': { title: 'Jonathan' } }, 'Wow, Jonathan, great')).toEqual(['people/john:title']);
  });

  it('longest match first', () => {
    const pages = { 'places/nyc': { title: 'New York City' }, 'places/ny': { title: 'New York State' }, 'x/new-york': { title: 'New York' } };
    expect(hits(pages, 'we flew to New York City')).toEqual(['places/nyc:title']);
    expect(hits(pages, 'we flew to New York today')).toEqual(['x/new-york:title']);
  });

  it('case-exact first letter: lower-case text never hits a capitalised name', () => {
    expect(hits({ 'companies/apple': { title: 'Apple' } }, 'an apple a day', { minConfidence: 0 })).toEqual([]);
    expect(hits({ 'people/will': { title: 'Will Hunting' } }, 'will hunting be allowed')).toEqual([]);
  });

  it('stopword-only, common-word-only and single-letter names are not registered', () => {
    expect(hits({ 'bands/the-who': { title: 'The Who' } }, 'who are the who', { minConfidence: 0 })).toEqual([]);
    expect(hits({ 'x/may': { title: 'May' } }, 'May I ask', { minConfidence: 0 })).toEqual([]);
    const index = indexOf({ 'x/a': { title: 'A' }, 'x/the': { title: 'The' }, 'x/2026': { title: '2026' }, 'x/nw': { title: 'Next Week' }, 'x/m': { title: 'monday' }, 'x/low': { title: 'lower case title' } });
    expect(index.gazetteer?.stats()).toEqual({ terms: 0, prefixes: 0 });
  });

  it('lower-case multi-word aliases are weak: alias arm only, unique across the scope', () => {
    const pages = { 'shows/office': { title: 'Office Show', aliases: ['the office'] } };
    expect(hits(pages, 'we watched the office again')).toEqual(['shows/office:alias']);
    const split = { ...pages, 'shows/office2': { title: 'Other', aliases: ['the office'], source: 'team' } };
    expect(hits(split, 'we watched the office again', { scope: ['default', 'team'] })).toEqual([]);
    expect(hits(pages, 'we watched the office again', { lexicalArms: false })).toEqual([]);
  });

  it('never feeds the slug or surname arms', () => {
    const pages = { 'people/ford-mustang': { title: 'Henry Mustang' }, 'cars/x': { title: 'Ford Mustang' } };
    expect(hits(pages, 'the Ford Mustang I found')).toEqual(['cars/x:title']);
  });

  it('is maintained incrementally: renames and deletions drop the old names', () => {
    const index = new PageIndex();
    index.upsert(page('media/game', { title: 'Cyberpunk 2077', aliases: ['CP77'] }));
    const run = (text: string) => volunteer([user(text)], index, { scope: ['default'] }).map((p) => p.slug);
    expect(run('I play Cyberpunk 2077')).toEqual(['media/game']);
    index.upsert(page('media/game', { title: 'Witcher 3', aliases: ['W3 Game'] }));
    expect(run('I play Cyberpunk 2077')).toEqual([]);
    expect(run('I play Witcher 3 now')).toEqual(['media/game']);
    expect(run('I play W3 Game now')).toEqual(['media/game']);
    index.remove('default', 'media/game');
    expect(run('I play Witcher 3 now')).toEqual([]);
    expect(index.gazetteer?.stats()).toEqual({ terms: 0, prefixes: 0 });
  });

  it('respects scope and privacy', () => {
    const pages = {
      'media/game': { title: 'Cyberpunk 2077', source: 'team' },
      'media/secret': { title: 'Secret Game 3', visibility: 'private' },
    };
    expect(hits(pages, 'I play Cyberpunk 2077')).toEqual([]);
    expect(hits(pages, 'I play Cyberpunk 2077', { scope: ['team'] })).toEqual(['media/game:title']);
    expect(hits(pages, 'I play Secret Game 3', { remote: true })).toEqual([]);
    expect(hits(pages, 'I play Secret Game 3')).toEqual(['media/secret:title']);
  });

  it('an index built without the gazetteer behaves spec-exact', () => {
    const index = indexOf({ 'media/game': { title: 'Cyberpunk 2077' } }, false);
    expect(index.gazetteer).toBeNull();
    expect(volunteer([user('I play Cyberpunk 2077')], index, { scope: ['default'] })).toEqual([]);
  });
});
