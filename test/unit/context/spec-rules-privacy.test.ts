import { describe, expect, it } from 'vitest';
import { volunteer } from '../../../src/context/volunteer.js';
import { indexOf, type PageSpec, user } from './helpers.js';

// For a remote caller private pages do not exist at all — they never
// resolve and never count for uniqueness. The owner sees them, so the same text that is
// ambiguous for the owner resolves the one public page for a remote caller. Privacy must hold
// with the gazetteer off (spec-exact) and on (product default).

describe.each([false, true])('private pages never count for uniqueness (gazetteer %s)', (gazetteer) => {
  const run = (pages: Record<string, PageSpec>, text: string, remote: boolean, scope = ['default']) =>
    volunteer([user(text)], indexOf(pages, gazetteer), { scope, remote, gazetteer, minConfidence: 0 }).map((p) => `${p.slug}:${p.arm}`);

  it('strong alias keys: uniqueness within a source ignores the private page', () => {
    const pages: Record<string, PageSpec> = {
      'people/ace-hidden': { title: 'Hidden Person', aliases: ['Ace'], visibility: 'private' },
      'people/ace-public': { title: 'Public Person', aliases: ['Ace'] },
    };
    expect(run(pages, 'met Ace yesterday', false)).toEqual([]);
    expect(run(pages, 'met Ace yesterday', true)).toEqual(['people/ace-public:alias']);
  });

  it('strong alias keys: a private page in another scope source neither resolves nor blocks', () => {
    const pages: Record<string, PageSpec> = {
      'people/ace-hidden': { title: 'Hidden Person', aliases: ['Ace'], visibility: 'private', source: 'team' },
      'people/ace-public': { title: 'Public Person', aliases: ['Ace'] },
    };
    expect(run(pages, 'met Ace yesterday', false, ['default', 'team'])).toEqual(['people/ace-hidden:alias', 'people/ace-public:alias']);
    expect(run(pages, 'met Ace yesterday', true, ['default', 'team'])).toEqual(['people/ace-public:alias']);
  });

  it('surname arm: the private person does not make the surname ambiguous', () => {
    const pages: Record<string, PageSpec> = {
      'people/jane-galewright': { title: 'Jane Galewright', visibility: 'private' },
      'people/ronan-galewright': { title: 'Ronan Galewright' },
    };
    expect(run(pages, 'Did Galewright ever call back?', false)).toEqual([]);
    expect(run(pages, 'Did Galewright ever call back?', true)).toEqual(['people/ronan-galewright:title-surname']);
  });

  it('cjk-title arm: the private page does not make the CJK key ambiguous', () => {
    const pages: Record<string, PageSpec> = {
      'people/tanaka-hidden': { title: '田中', visibility: 'private' },
      'people/tanaka': { title: '田中' },
    };
    expect(run(pages, '田中さんの会議のメモを見せて', false)).toEqual([]);
    expect(run(pages, '田中さんの会議のメモを見せて', true)).toEqual(['people/tanaka:cjk-title']);
  });
});
