import { describe, expect, it } from 'vitest';
import { volunteer, type VolunteerOptions } from '../../../src/context/volunteer.js';
import { indexOf, type PageSpec, user } from './helpers.js';

const run = (pages: Record<string, PageSpec>, text: string, opts: Partial<VolunteerOptions> = {}) =>
  volunteer([user(text)], indexOf(pages), { scope: ['default'], maxPages: 5, ...opts });
const hits = (pages: Record<string, PageSpec>, text: string, opts: Partial<VolunteerOptions> = {}): string[] =>
  run(pages, text, opts).map((p) => `${p.slug}:${p.arm}`);
const both = (pages: Record<string, PageSpec>, text: string) => ({
  off: hits(pages, text, { gazetteer: false }),
  on: hits(pages, text, { gazetteer: true }),
});

const max = { 'pets/max': { title: 'Max', type: 'pet' } };
const john = { 'people/john': { title: 'John' } };
const paris = { 'places/paris': { title: 'Paris', type: 'place' } };

describe('gazetteer: a name carried on from a capitalised word on its left is not the page', () => {
  it('drops the last word of a longer name, in the middle of a sentence', () => {
    expect(both(max, 'I met Peter Max yesterday')).toEqual({ off: [], on: [] });
    expect(both(john, 'we saw Elton John live')).toEqual({ off: [], on: [] });
    expect(both(paris, 'I met Hilton Paris')).toEqual({ off: [], on: [] });
    expect(both(paris, 'I met Paris Hilton')).toEqual({ off: [], on: [] });
  });

  it('still finds the same names standing on their own', () => {
    expect(hits(max, 'I met Max yesterday')).toEqual(['pets/max:title']);
    expect(hits(john, 'we saw John live')).toEqual(['people/john:title']);
    expect(hits(paris, 'we flew to Paris in May')).toEqual(['places/paris:title']);
    // Spec-exact finds them too: the gazetteer adds nothing here and takes nothing away.
    expect(hits(max, 'I met Max yesterday', { gazetteer: false })).toEqual(['pets/max:title']);
  });

  it('greetings and other hard stopwords, possessives and punctuation do not carry a name on', () => {
    expect(hits(john, 'Hi John, how was the trip?')).toEqual(['people/john:title']);
    expect(hits({ 'people/melanie': { title: 'Melanie' } }, 'Thanks Melanie! That was kind')).toEqual(['people/melanie:title']);
    expect(hits(max, 'Yes Max is fine now')).toEqual(['pets/max:title']);
    expect(hits({ 'pets/coco': { title: 'Coco', type: 'pet' } }, "I love Maria's Coco so much")).toEqual(['pets/coco:title']);
    expect(hits(john, 'Wow, John, great pic')).toEqual(['people/john:title']);
    expect(hits(john, 'Wow! John is back')).toEqual(['people/john:title']);
  });

  it('a word opening a sentence is no evidence of a longer name: the name after it is kept', () => {
    // Addressed or met, the usual chat shapes; the spec-exact pass forms "Wow John" and finds nothing.
    expect(both(john, 'Wow John, great pic')).toEqual({ off: [], on: ['people/john:title'] });
    expect(both(max, 'Met Max at the fair')).toEqual({ off: [], on: ['pets/max:title'] });
    expect(both(max, 'We laughed. Loved Max in that pic')).toEqual({ off: [], on: ['pets/max:title'] });
    // Mid-sentence the same shape is a longer name, and dropped.
    expect(both(max, 'we laughed and Peter Max was there too')).toEqual({ off: [], on: [] });
    // A line break alone is not a sentence start: the word on the left is mid-sentence.
    expect(hits({ 'places/new-york': { title: 'New York' } }, 'we stayed at the\nHotel New York')).toEqual([]);
  });

  it('a longer registered name after a sentence-opening word is the name itself', () => {
    expect(both({ 'people/alice-example': { title: 'Alice Example' } }, 'Met Alice Example today')).toEqual({
      off: [],
      on: ['people/alice-example:title'],
    });
    expect(hits({ 'media/cyberpunk-2077': { title: 'Cyberpunk 2077' } }, 'Loved Cyberpunk 2077, what a game')).toEqual(['media/cyberpunk-2077:title']);
    // Mid-sentence the same capitalised word on the left is part of a longer name.
    expect(hits({ 'places/new-york': { title: 'New York' } }, 'we stayed at Hotel New York')).toEqual([]);
    expect(hits({ 'places/new-york': { title: 'New York' } }, 'Loved New York in the fall')).toEqual(['places/new-york:title']);
  });
});

describe('gazetteer: rationale and display of a normalised match', () => {
  const spider = { 'media/spider-man': { title: 'Spider-Man' } };

  it('a hyphen matched by a space is shown and explained with the title as the page spells it', () => {
    const [p] = run(spider, 'I love Spider Man movies');
    expect(p).toMatchObject({ arm: 'title', display: 'Spider-Man', rationale: 'exact title match "Spider-Man"; mentioned in the newest turn' });
  });

  it('punctuation matched across a space is shown as the page spells it', () => {
    const [p] = run({ 'media/csgo': { title: 'CS:GO' } }, 'I play CS: GO daily');
    expect(p).toMatchObject({ arm: 'title', display: 'CS:GO', rationale: 'exact title match "CS:GO"; mentioned in the newest turn' });
  });

  it('a surface differing only in case, whitespace or a possessive is kept, as the spec shows it', () => {
    expect(run(spider, "I love Spider-Man's suit")[0]).toMatchObject({ display: "Spider-Man's", rationale: 'exact title match "Spider-Man\'s"; mentioned in the newest turn' });
    expect(run(spider, 'I love SPIDER-MAN')[0]).toMatchObject({ display: 'SPIDER-MAN' });
  });

  it('an alias hit still shows the title, however the alias was written', () => {
    const [p] = run({ 'media/csgo': { title: 'Counter-Strike: Global Offensive', aliases: ['CS:GO'] } }, 'I play CS: GO daily');
    expect(p).toMatchObject({ arm: 'alias', display: 'Counter-Strike: Global Offensive', rationale: 'alias match "Counter-Strike: Global Offensive"; mentioned in the newest turn' });
  });
});

describe('gazetteer: alias uniqueness per source', () => {
  const scope = { scope: ['default', 'team'] };

  it('an alias unique in each of two sources yields one pointer per source', () => {
    const pages = {
      'media/csgo': { title: 'Counter-Strike: Global Offensive', aliases: ['CS:GO'] },
      'games/counter-strike': { title: 'Counter Strike GO', aliases: ['CS:GO'], source: 'team' },
    };
    expect(both(pages, 'I usually play CS:GO')).toEqual({ off: [], on: ['media/csgo:alias'] });
    expect(hits(pages, 'I usually play CS:GO', { ...scope, gazetteer: false })).toEqual([]);
    expect(hits(pages, 'I usually play CS:GO', scope)).toEqual(['games/counter-strike:alias', 'media/csgo:alias']);
    expect(run(pages, 'I usually play CS:GO', scope).map((p) => `${p.source_id}/${p.slug}`)).toEqual(['team/games/counter-strike', 'default/media/csgo']);
  });

  it('two pages declaring it in one source silence that source only', () => {
    const pages = {
      'media/csgo': { title: 'Counter-Strike: Global Offensive', aliases: ['CS:GO'] },
      'media/csgo-2': { title: 'Other Shooter', aliases: ['CS:GO'] },
      'games/counter-strike': { title: 'Counter Strike GO', aliases: ['CS:GO'], source: 'team' },
    };
    expect(hits(pages, 'I usually play CS:GO', scope)).toEqual(['games/counter-strike:alias']);
  });
});
