import { describe, expect, it } from 'vitest';
import { extractCandidates, type Candidate } from '../../../src/context/extract.js';
import { withoutCoveredMentions } from '../../../src/context/span-cover.js';
import { resolvePointers, volunteer, type VolunteerOptions } from '../../../src/context/volunteer.js';
import type { Turn } from '../../../src/context/turn.js';
import { assistant, indexOf, type PageSpec, user } from './helpers.js';

/** Candidates as the passes emit them: one per key, every sighting as [start, end). */
const cand = (key: string, weak: boolean, ...spans: number[]): Candidate => ({ display: key, query: key, key, weak, spans });

describe('withoutCoveredMentions (the pure rule)', () => {
  // The kinds of sighting each arm resolves from: the rule reads spans, never the arm, so every
  // ordered pair behaves the same. The table makes that a checked fact rather than a claim.
  const KINDS: Record<string, boolean> = { title: false, alias: false, surname: false, 'slug suffix': false, gazetteer: false, CJK: true };
  const pairs = Object.keys(KINDS).flatMap((long) => Object.keys(KINDS).map((short) => [long, short] as const));

  it.each(pairs)('a %s sighting covering a %s sighting drops the shorter one', (long, short) => {
    const longer = cand(`${long} long name`, KINDS[long], 10, 30);
    const shorter = cand(`${short} short`, KINDS[short], 10, 19);
    const matched = new Set([longer.key, shorter.key]);
    expect(withoutCoveredMentions([shorter, longer], matched)).toEqual([longer]);
    // Seen on its own elsewhere in the turn: kept, with only that sighting.
    const twice = cand(shorter.key, KINDS[short], 0, 5, 12, 20);
    expect(withoutCoveredMentions([twice, longer], new Set([longer.key, twice.key]))).toEqual([{ ...twice, spans: [0, 5] }, longer]);
  });

  it('returns the same list when nothing is covered', () => {
    const list = [cand('a', false, 0, 5), cand('b', false, 6, 12)];
    expect(withoutCoveredMentions(list, new Set(['a', 'b']))).toBe(list);
  });

  it('an unmatched longer name covers nothing; an unmatched shorter one is left alone', () => {
    const list = [cand('seattle', false, 0, 7), cand('seattle public', false, 0, 14)];
    expect(withoutCoveredMentions(list, new Set(['seattle']))).toBe(list);
    expect(withoutCoveredMentions(list, new Set(['seattle public']))).toBe(list);
  });

  it('covering needs containment and a strictly longer span', () => {
    const overlap = [cand('new york times', false, 0, 14), cand('times square', false, 9, 21)];
    expect(withoutCoveredMentions(overlap, new Set(['new york times', 'times square']))).toBe(overlap);
    const same = [cand('a-b', false, 0, 3), cand('a b', false, 0, 3)];
    expect(withoutCoveredMentions(same, new Set(['a-b', 'a b']))).toBe(same);
  });

  it('candidates without spans never cover and are never covered', () => {
    const bare: Candidate = { display: 'Cyberpunk', query: 'Cyberpunk', key: 'cyberpunk', weak: false };
    const list = [bare, cand('cyberpunk 2077', false, 0, 14)];
    expect(withoutCoveredMentions(list, new Set(['cyberpunk', 'cyberpunk 2077']))).toBe(list);
  });
});

describe('sightings recorded by extraction', () => {
  const spansOf = (text: string, extra?: Parameters<typeof extractCandidates>[1]) =>
    Object.fromEntries(extractCandidates(text, extra).map((c) => [c.key, c.spans]));

  it('capitalised runs, the run after leading stopwords, handles, repeats in later passes', () => {
    const text = 'Dinner at The Galewright with @ronan; galewright again';
    const at = (s: string, from = 0): [number, number] => [text.indexOf(s, from), text.indexOf(s, from) + s.length];
    expect(spansOf(text)).toEqual({
      dinner: at('Dinner'),
      'the galewright': at('The Galewright'),
      galewright: [...at('Galewright'), ...at('galewright')],
      ronan: at('@ronan'),
      again: at('again'),
    });
  });

  it('CJK grams carry their offsets in the turn; a gram met again records the new place', () => {
    const spans = spansOf('会議: 東京大学に行った 東京');
    expect(spans['東京大学']).toEqual([4, 8]);
    expect(spans['東京']).toEqual([4, 6, 13, 15]);
    expect(spans['京大学に']).toEqual([5, 9]);
  });

  it('a gazetteer hit carries its span; a hit on a key already seen adds the sighting', () => {
    const index = indexOf({ 'games/cyberpunk': { title: 'Cyberpunk' }, 'games/cyberpunk-2077': { title: 'Cyberpunk 2077' } });
    const gaz = index.gazetteer!;
    const spans = spansOf('Cyberpunk, then Cyberpunk 2077', (t, taken, out) => gaz.scan(t, () => true, taken, out));
    expect(spans['cyberpunk 2077']).toEqual([16, 30]);
    expect(spans.cyberpunk).toEqual([0, 9, 16, 25, 0, 9]);
  });
});

describe('the longest name wins through volunteer', () => {
  const run = (pages: Record<string, PageSpec>, turns: Turn[] | string, opts: Partial<VolunteerOptions> = {}) =>
    volunteer(typeof turns === 'string' ? [user(turns)] : turns, indexOf(pages), { scope: ['default'], minConfidence: 0, maxPages: 5, ...opts }).map(
      (p) => `${p.slug}:${p.arm}`,
    );

  it('title ⊃ surname: "The Galewright" (a pub) is not Ronan Galewright', () => {
    const pages = { 'places/the-galewright': { title: 'The Galewright', type: 'place' }, 'people/ronan-galewright': { title: 'Ronan Galewright' } };
    expect(run(pages, 'Dinner at The Galewright tonight')).toEqual(['places/the-galewright:title']);
    expect(run(pages, 'Dinner at The Galewright, Galewright paid')).toEqual(['places/the-galewright:title', 'people/ronan-galewright:title-surname']);
  });

  it('title ⊃ title and slug suffix ⊃ title when the longer name comes from the capitalised run', () => {
    const pages = { 'bands/the-beatles': { title: 'The Beatles' }, 'insects/beatles': { title: 'Beatles' } };
    expect(run(pages, 'we played The Beatles all night')).toEqual(['bands/the-beatles:title']);
    const bySlug = { 'bands/the-beatles': { title: 'Fab Four' }, 'insects/beatles': { title: 'Beatles' } };
    expect(run(bySlug, 'we played The Beatles all night')).toEqual(['bands/the-beatles:slug-suffix']);
  });

  it('title (gazetteer) ⊃ title: Cyberpunk 2077 is not Cyberpunk; alone elsewhere it still is', () => {
    const pages = { 'games/cyberpunk': { title: 'Cyberpunk' }, 'games/cyberpunk-2077': { title: 'Cyberpunk 2077' } };
    expect(run(pages, 'I finished Cyberpunk 2077 last night')).toEqual(['games/cyberpunk-2077:title']);
    expect(run(pages, 'Cyberpunk as a genre is older than Cyberpunk 2077')).toEqual(['games/cyberpunk:title', 'games/cyberpunk-2077:title']);
    const numbered = { 'people/alice-analogue': { title: 'Alice Analogue' }, 'games/alice-analogue-2': { title: 'Alice Analogue 2' } };
    expect(run(numbered, 'Alice Analogue 2 is out')).toEqual(['games/alice-analogue-2:title']);
  });

  it('alias (gazetteer) ⊃ title and alias ⊃ surname: Bank of America is not America', () => {
    expect(run({ 'places/america': { title: 'America' }, 'companies/bofa': { title: 'BofA', aliases: ['Bank of America'] } }, 'I called Bank of America today')).toEqual([
      'companies/bofa:alias',
    ]);
    expect(run({ 'companies/bog': { title: 'BoG', aliases: ['Bank of Galewright'] }, 'people/ronan-galewright': { title: 'Ronan Galewright' } }, 'I called Bank of Galewright today')).toEqual([
      'companies/bog:alias',
    ]);
  });

  it('title (gazetteer) ⊃ slug suffix', () => {
    const pages = { 'groups/friends': { title: 'Friends of Widget-Co' }, 'projects/widget-co': { title: 'The Widget Company', type: 'project' } };
    expect(run(pages, 'we met Friends of Widget-Co')).toEqual(['groups/friends:title']);
    expect(run(pages, 'Widget-Co sent Friends of Widget-Co a note')).toEqual(['groups/friends:title', 'projects/widget-co:slug-suffix']);
  });

  it('slug suffix ⊃ gazetteer title: "Alice Example" (a slug) is not the page "Example"', () => {
    expect(run({ 'alice-example': { title: 'Someone' }, 'concepts/example': { title: 'Example' } }, 'Alice Example called')).toEqual(['alice-example:slug-suffix']);
  });

  it('weak alias (gazetteer) ⊃ weak alias: "iPhone 15" is not "iphone"', () => {
    const pages = { 'devices/iphone-15': { title: 'Phone Fifteen', aliases: ['iPhone 15'] }, 'devices/iphone': { title: 'Phone', aliases: ['iphone'] } };
    expect(run(pages, 'my iPhone 15 broke')).toEqual(['devices/iphone-15:alias']);
    expect(run(pages, 'my iPhone 15 broke, the old iPhone works')).toEqual(['devices/iphone-15:alias', 'devices/iphone:alias']);
  });

  it('CJK ⊃ CJK: 東京大学 is not 東京', () => {
    const pages = { 'schools/todai': { title: '東京大学' }, 'places/tokyo': { title: '東京' } };
    expect(run(pages, '東京大学に行った')).toEqual(['schools/todai:cjk-title']);
    expect(run(pages, '東京の東京大学に行った')).toEqual(['places/tokyo:cjk-title', 'schools/todai:cjk-title']);
  });

  it('alias (gazetteer) ⊃ CJK', () => {
    expect(run({ 'companies/sony-tokyo': { title: 'Sony Tokyo', aliases: ['Sony 東京'] }, 'places/tokyo': { title: '東京' } }, 'I visited Sony 東京 office')).toEqual([
      'companies/sony-tokyo:alias',
    ]);
  });

  it('a covered sighting is not a mention: no salience boost from it, and it may come back in another turn', () => {
    const pages = { 'games/cyberpunk': { title: 'Cyberpunk' }, 'games/cyberpunk-2077': { title: 'Cyberpunk 2077' } };
    const turns = [user('Cyberpunk is a genre I like'), assistant('noted'), user('I finished Cyberpunk 2077 last night')];
    const got = volunteer(turns, indexOf(pages), { scope: ['default'], minConfidence: 0 });
    expect(got.map((p) => [p.slug, p.confidence, p.rationale])).toEqual([
      ['games/cyberpunk-2077', 0.8500000000000001, 'exact title match "Cyberpunk 2077"; mentioned in the newest turn'],
      ['games/cyberpunk', 0.8, 'exact title match "Cyberpunk"'],
    ]);
  });

  it('the hook and reflex pointers follow the same rule', () => {
    const index = indexOf({ 'games/cyberpunk': { title: 'Cyberpunk' }, 'games/cyberpunk-2077': { title: 'Cyberpunk 2077' } });
    expect(resolvePointers([user('I finished Cyberpunk 2077 last night')], index, { scope: ['default'] }).map((p) => p.slug)).toEqual(['games/cyberpunk-2077']);
  });
});

describe('with the gazetteer off, the spec passes alone', () => {
  const run = (pages: Record<string, PageSpec>, text: string) =>
    volunteer([user(text)], indexOf(pages, false), { scope: ['default'], gazetteer: false, minConfidence: 0, maxPages: 5 }).map((p) => `${p.slug}:${p.arm}`);

  it('still let the longer capitalised run and the longer CJK gram win', () => {
    expect(run({ 'places/the-galewright': { title: 'The Galewright', type: 'place' }, 'people/ronan-galewright': { title: 'Ronan Galewright' } }, 'Dinner at The Galewright tonight')).toEqual([
      'places/the-galewright:title',
    ]);
    expect(run({ 'schools/todai': { title: '東京大学' }, 'places/tokyo': { title: '東京' } }, '東京大学に行った')).toEqual(['schools/todai:cjk-title']);
  });

  it('cannot see names only the gazetteer finds: the shorter page stays', () => {
    const pages = { 'games/cyberpunk': { title: 'Cyberpunk' }, 'games/cyberpunk-2077': { title: 'Cyberpunk 2077' } };
    expect(run(pages, 'I finished Cyberpunk 2077 last night')).toEqual(['games/cyberpunk:title']);
  });
});
