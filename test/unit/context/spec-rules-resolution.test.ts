import { describe, expect, it } from 'vitest';
import type { Turn } from '../../../src/context/turn.js';
import { volunteer, type VolunteerOptions } from '../../../src/context/volunteer.js';
import { assistant, indexOf, type PageSpec, user } from './helpers.js';

// Resolution rule by rule, including where it deliberately differs from the reference. The
// gazetteer (beyond the spec) finds registered names by its own normalisation, so the
// spec-exact rules run with it off.

const decide = (pages: Record<string, PageSpec>, turns: string | Turn[], opts: Partial<VolunteerOptions> = {}) =>
  volunteer(typeof turns === 'string' ? [user(turns)] : turns, indexOf(pages, false), {
    scope: ['default'],
    gazetteer: false,
    minConfidence: 0,
    maxPages: 5,
    ...opts,
  });

const arms = (pages: Record<string, PageSpec>, turns: string | Turn[], opts: Partial<VolunteerOptions> = {}) =>
  decide(pages, turns, opts).map((p) => `${p.slug}:${p.arm}`);

describe('the title list holds query.toLowerCase(), not the NFKC key', () => {
  const alice = { 'people/alice-example': { title: 'Alice Example' } };

  it('a full-width surface misses the ASCII title and falls to the slug (NFKD)', () => {
    expect(arms(alice, 'met Ａｌｉｃｅ Example today')).toEqual(['people/alice-example:slug-suffix']);
  });

  it('the same surface matches a title written the same way', () => {
    expect(arms({ 'people/alice-fw': { title: 'Ａｌｉｃｅ Example' } }, 'met Ａｌｉｃｅ Example today')).toEqual(['people/alice-fw:title']);
  });

  it('alias keys are NFKC-normalised, so a registered alias does match it', () => {
    expect(arms({ 'people/alice-example': { title: 'Alice Example', aliases: ['Alice Example'] } }, 'met Ａｌｉｃｅ Example today')).toEqual([
      'people/alice-example:alias',
    ]);
  });
});

describe('the matched key of a title or slug-suffix hit (boost and rank)', () => {
  it('title: each page takes the candidate whose lower-cased query equals its title', () => {
    const pages = { 'people/alice': { title: 'Alice Example' }, 'people/bob': { title: 'Bob Sample' } };
    const out = decide(pages, [user('Alice Example and Bob Sample'), user('Bob Sample again')]);
    expect(out.map((p) => [p.slug, p.confidence, p.rank, p.rationale])).toEqual([
      ['people/bob', 0.8500000000000001, 1, 'exact title match "Bob Sample"; mentioned in 2 of last 2 turns'],
      ['people/alice', 0.8, 0, 'exact title match "Alice Example"'],
    ]);
  });

  it('slug-suffix: the first candidate in window order (first mention first) giving the slug, not the first seen', () => {
    const pages = { 'projects/widget-co': { title: 'The Widget Company Project' } };
    // "Widget-Co" (order 0, oldest turn) and "Widget Co" (order 2, newest turn) both slugify to
    // widget-co; the newer one weighs more, so it comes first in list order and is the match.
    const out = decide(pages, [user('Widget-Co update'), assistant('ok'), user('what about Widget Co now')]);
    expect(out.map((p) => [p.arm, p.confidence, p.rank, p.rationale])).toEqual([
      ['slug-suffix', 0.65, 2, 'slug match "The Widget Company Project"; mentioned in the newest turn'],
    ]);
    const reversed = decide(pages, [user('what about Widget Co now'), assistant('ok'), user('Widget-Co update')]);
    expect(reversed.map((p) => [p.confidence, p.rank])).toEqual([[0.65, 2]]);
    const older = decide(pages, [user('what about Widget Co now'), user('Widget-Co update'), assistant('ok')]);
    expect(older.map((p) => [p.confidence, p.rank])).toEqual([[0.6, 2]]);
  });
});

describe('cjk-title arm', () => {
  const text = '田中さんの会議のメモを見せて';

  it('a CJK key that is already the matched key of a pointer gives no cjk-title', () => {
    const pages = {
      'people/tanaka-akira': { title: 'Tanaka Akira', aliases: ['田中'] },
      'people/tanaka': { title: '田中' },
    };
    expect(arms(pages, text)).toEqual(['people/tanaka-akira:alias']);
    expect(arms({ 'people/tanaka': { title: '田中' } }, text)).toEqual(['people/tanaka:cjk-title']);
  });

  it('exactly one page across all scope sources: one per source is ambiguous', () => {
    const pages = { 'people/t1': { title: '田中' }, 'people/t2': { title: '田中', source: 'team' } };
    expect(arms(pages, text, { scope: ['default', 'team'] })).toEqual([]);
    expect(arms(pages, text, { scope: ['default'] })).toEqual(['people/t1:cjk-title']);
    expect(arms(pages, text, { scope: ['team'] })).toEqual(['people/t2:cjk-title']);
  });

  it('a title in one source and a slug in another are two pages: ambiguous', () => {
    const pages = { 'people/t1': { title: '田中' }, '田中': { title: 'Tanaka San', source: 'team' } };
    expect(arms(pages, text, { scope: ['default', 'team'] })).toEqual([]);
    expect(arms(pages, text, { scope: ['team'] })).toEqual(['田中:cjk-title']);
  });
});

describe('display: the candidate’s merged display as it is', () => {
  const pages = { 'people/alice-example': { title: 'Alice Example', aliases: ['Alice Example'] } };

  it('a run across a line break or a whitespace run keeps its surface', () => {
    expect(decide(pages, 'met Alice\nExample today').map((p) => [p.arm, p.display, p.rationale])).toEqual([
      ['alias', 'Alice\nExample', 'alias match "Alice\nExample"; mentioned in the newest turn'],
    ]);
    expect(decide(pages, 'met Alice   Example today').map((p) => p.display)).toEqual(['Alice   Example']);
  });

  it('the user’s surface wins over a later assistant one (window merge rule)', () => {
    expect(decide(pages, [user('met Alice\tExample'), assistant('Alice Example is nice')]).map((p) => p.display)).toEqual(['Alice\tExample']);
  });
});

describe.each([false, true])('lower-case alice-example resolves only through a registered alias (gazetteer %s)', (gazetteer) => {
  const run = (pages: Record<string, PageSpec>) =>
    volunteer([user('can you ask alice-example about the deal')], indexOf(pages, gazetteer), { scope: ['default'], gazetteer, minConfidence: 0 });

  it('not by title, not by the exact slug, not by slug suffix, even at gate 0', () => {
    expect(run({ 'people/alice-example': { title: 'Alice Example' } })).toEqual([]);
    expect(run({ 'alice-example': { title: 'Someone Else' } })).toEqual([]);
    expect(run({ 'alice-example': { title: 'alice-example' } })).toEqual([]);
  });

  it('a registered alias resolves it (weak key, unique): alias 0.95, display the title', () => {
    const out = run({ 'people/alice-example': { title: 'Alice Example', aliases: ['alice-example'] } });
    expect(out.map((p) => [p.slug, p.arm, p.confidence, p.display])).toEqual([['people/alice-example', 'alias', 0.9500000000000001, 'Alice Example']]);
  });
});
