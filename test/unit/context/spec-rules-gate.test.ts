import { describe, expect, it } from 'vitest';
import type { PageIndex } from '../../../src/context/page-index.js';
import { resolvePointers, volunteer } from '../../../src/context/volunteer.js';
import { indexOf, type PageSpec, user } from './helpers.js';

// The gate, order and cap see every resolved page, and a turn without
// candidates never reaches the index.

const PEOPLE = ['Ada Quill', 'Ben Rook', 'Cleo Marsh', 'Dev Okafor', 'Eli Varga', 'Fay Lund', 'Gus Ortega', 'Hal Brandt', 'Ivy Sato', 'Jon Pike', 'Kim Adair', 'Lou Ferris'];
const slugOf = (name: string): string => `people/${name.toLowerCase().replace(' ', '-')}`;

describe('no intermediate pool (deliberate difference: the reference cut 10 before exclusion and gating)', () => {
  const pages: Record<string, PageSpec> = Object.fromEntries(PEOPLE.map((name) => [slugOf(name), { title: name }]));
  const turns = [user(`${PEOPLE.join(', ')}.`)];
  const firstTen = PEOPLE.slice(0, 10).map(slugOf);
  const opts = { scope: ['default'], gazetteer: false, maxPages: 5 };

  it('twelve resolved pages, the first ten excluded: the eleventh and twelfth are volunteered', () => {
    expect(volunteer(turns, indexOf(pages, false), opts)).toHaveLength(5);
    const out = volunteer(turns, indexOf(pages, false), { ...opts, excludeSlugs: firstTen });
    expect(out.map((p) => p.slug)).toEqual(['people/kim-adair', 'people/lou-ferris']);
  });

  it('the same when the first ten are suppressed by the prior context', () => {
    const out = volunteer(turns, indexOf(pages, false), { ...opts, priorContext: `already shown: ${firstTen.join(', ')}` });
    expect(out.map((p) => p.slug)).toEqual(['people/kim-adair', 'people/lou-ferris']);
  });

  it('the same when the first ten fail the gate (slug-suffix hits mentioned first)', () => {
    const names = PEOPLE.slice(0, 10).map((name) => name.split(' ')[1]);
    const gated: Record<string, PageSpec> = Object.fromEntries(names.map((w) => [`projects/${w.toLowerCase()}-co`, { title: `${w} Holdings Project` }]));
    gated['people/kim-adair'] = { title: 'Kim Adair' };
    gated['people/lou-ferris'] = { title: 'Lou Ferris' };
    const text = `${names.map((w) => `${w}-Co`).join(', ')}, Kim Adair, Lou Ferris.`;
    const all = resolvePointers([user(text)], indexOf(gated, false), { scope: ['default'], gazetteer: false, maxPointers: 99 });
    expect(all).toHaveLength(12);
    const out = volunteer([user(text)], indexOf(gated, false), opts);
    expect(out.map((p) => [p.slug, p.arm])).toEqual([
      ['people/kim-adair', 'title'],
      ['people/lou-ferris', 'title'],
    ]);
  });
});

describe('no turns, an empty scope or no candidates → [] without touching the index', () => {
  // Any property read of this index fails the test.
  const untouchable = new Proxy({} as PageIndex, {
    get(_target, prop) {
      throw new Error(`the index was read (${String(prop)})`);
    },
  });

  // With the gazetteer off the spec's passes find the candidates from the text alone. With it on
  // the index must be read before anything is known: the gazetteer is part of the index and is
  // itself a source of candidates (a registered name the spec's passes cannot form).
  it('a turn with no candidates (gazetteer off)', () => {
    for (const text of ['the is a', 'ok, it is what it is', 'Today. Monday.', '12 34', 'それをしてください']) {
      expect(volunteer([user(text)], untouchable, { scope: ['default'], gazetteer: false, minConfidence: 0 }), text).toEqual([]);
      expect(resolvePointers([user(text)], untouchable, { scope: ['default'], gazetteer: false }), text).toEqual([]);
    }
  });

  it('no turns, or an empty scope (gazetteer on or off)', () => {
    for (const gazetteer of [false, true]) {
      expect(volunteer([], untouchable, { scope: ['default'], gazetteer })).toEqual([]);
      expect(volunteer([user('Alice Example')], untouchable, { scope: [], gazetteer })).toEqual([]);
      expect(resolvePointers([], untouchable, { scope: ['default'], gazetteer })).toEqual([]);
    }
  });
});
