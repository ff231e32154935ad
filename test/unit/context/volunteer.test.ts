import { describe, expect, it } from 'vitest';
import { parseWindowText } from '../../../src/context/parse-window.js';
import { resolvePointers, volunteer, type VolunteerOptions } from '../../../src/context/volunteer.js';
import type { Turn } from '../../../src/context/turn.js';
import { assistant, indexOf, type PageSpec, user } from './helpers.js';

const ALICE: Record<string, PageSpec> = {
  'people/alice-example': { title: 'Alice Example', body: 'Alice is an early founder. She invests.' },
};

// Every spec rule must hold with the gazetteer off (spec-exact) and on (product default).
describe.each([false, true])('volunteer examples (gazetteer %s)', (gazetteer) => {
  const run = (pages: Record<string, PageSpec>, turns: Turn[], opts: Partial<VolunteerOptions> = {}) =>
    volunteer(turns, indexOf(pages), { scope: ['default'], gazetteer, ...opts });

  it('assistant-introduced title: 0.80 with the window, nothing with the last turn only', () => {
    const turns = [
      user('who should I talk to about the seed round?'),
      assistant('Alice Example led a similar round last year.'),
      user('what did she invest in?'),
    ];
    expect(run(ALICE, turns)).toEqual([
      {
        slug: 'people/alice-example',
        source_id: 'default',
        display: 'Alice Example',
        confidence: 0.8,
        arm: 'title',
        rationale: 'exact title match "Alice Example"; assistant-introduced',
        synopsis: 'Alice is an early founder.',
        rank: 4,
      },
    ]);
    expect(run(ALICE, turns.slice(-1))).toEqual([]);
  });

  it('title in the newest turn: 0.85 (0.8500000000000001)', () => {
    const [p] = run(ALICE, [user('what do you think about Alice Example?')]);
    expect(p.arm).toBe('title');
    expect(p.confidence).toBe(0.8500000000000001);
    expect(p.confidence.toFixed(2)).toBe('0.85');
    expect(p.rationale).toBe('exact title match "Alice Example"; mentioned in the newest turn');
  });

  it('alias: 0.95, display = title', () => {
    const [p] = run({ 'people/swami-x': { title: 'Swami X', aliases: ['Swami'] } }, [user('Spoke with Swami today')]);
    expect(p).toMatchObject({ arm: 'alias', confidence: 0.9500000000000001, display: 'Swami X', rationale: 'alias match "Swami X"; mentioned in the newest turn' });
  });

  it('weak alias, unique: 0.95', () => {
    const [p] = run({ 'people/saoirse-x': { title: 'Saoirse X', aliases: ['saoirse'] } }, [user('remind me what saoirse said about the round')]);
    expect(p).toMatchObject({ slug: 'people/saoirse-x', arm: 'alias', confidence: 0.9500000000000001, display: 'Saoirse X' });
  });

  it('weak keys are alias-only: a title "Saoirse" never matches, even at gate 0', () => {
    expect(run({ 'people/saoirse': { title: 'Saoirse' } }, [user('remind me what saoirse said about the round')], { minConfidence: 0 })).toEqual([]);
  });

  it('surname: 0.77 with the newest-turn rationale', () => {
    const [p] = run({ 'people/ronan-galewright': { title: 'Ronan Galewright' } }, [user('Did Galewright ever follow up on that intro?')]);
    expect(p).toMatchObject({
      arm: 'title-surname',
      confidence: 0.77,
      display: 'Ronan Galewright',
      rationale: 'surname match "Ronan Galewright"; mentioned in the newest turn',
    });
  });

  it('ambiguous surname: nothing', () => {
    const pages = { 'people/ronan-galewright': { title: 'Ronan Galewright' }, 'people/mira-galewright': { title: 'Mira Galewright' } };
    expect(run(pages, [user('Did Galewright ever follow up on that intro?')], { minConfidence: 0 })).toEqual([]);
  });

  it('slug-suffix: 0.65, dropped at 0.7, volunteered at 0.5', () => {
    const pages = { 'projects/widget-co': { title: 'The Widget Company Project', type: 'project' } };
    const turns = [user('any updates on Widget-Co this week?')];
    expect(run(pages, turns)).toEqual([]);
    const [p] = run(pages, turns, { minConfidence: 0.5 });
    expect(p).toMatchObject({ arm: 'slug-suffix', confidence: 0.65, display: 'The Widget Company Project', rationale: 'slug match "The Widget Company Project"; mentioned in the newest turn' });
  });

  it('cjk-title: 0.77', () => {
    const [p] = run({ 'people/tanaka': { title: '田中' } }, [user('田中さんの会議のメモを見せて')]);
    expect(p).toMatchObject({ arm: 'cjk-title', confidence: 0.77, display: '田中', rationale: 'exact CJK title/slug match "田中"; mentioned in the newest turn' });
  });

  it('suppression is slug-only: a prior mention does not suppress, a surfaced slug does', () => {
    const turns = [user('ping Alice Example again')];
    expect(run(ALICE, turns, { priorContext: 'I will tell Alice Example the news' }).map((p) => p.slug)).toEqual(['people/alice-example']);
    expect(run(ALICE, turns, { priorContext: 'pointer: people/alice-example was injected' })).toEqual([]);
    expect(run(ALICE, turns, { priorContext: 'see People/Alice-Example.' })).toEqual([]);
    expect(run(ALICE, turns, { priorContext: 'people/alice-example.md' })).toHaveLength(1);
  });
});

describe('resolution arms', () => {
  const run = (pages: Record<string, PageSpec>, text: string | Turn[], opts: Partial<VolunteerOptions> = {}) =>
    volunteer(typeof text === 'string' ? [user(text)] : text, indexOf(pages), { scope: ['default'], gazetteer: false, minConfidence: 0, maxPages: 5, ...opts }).map(
      (p) => `${p.slug}:${p.arm}`,
    );

  it('handles resolve through aliases; display is the title', () => {
    const pages = { 'people/garry-tan': { title: 'Garry Tan', aliases: ['garry'] } };
    expect(volunteer([user('ping @garry about it')], indexOf(pages), { scope: ['default'] })[0]).toMatchObject({ arm: 'alias', display: 'Garry Tan' });
  });

  it('strong alias keys are unique per source; the same alias in two sources gives two pointers', () => {
    const two = { 'people/a': { title: 'A One', aliases: ['Ace'] }, 'people/b': { title: 'B Two', aliases: ['Ace'] } };
    expect(run(two, 'met Ace')).toEqual([]);
    const split = { 'people/a': { title: 'A One', aliases: ['Ace'] }, 'people/b': { title: 'B Two', aliases: ['Ace'], source: 'team' } };
    expect(run(split, 'met Ace', { scope: ['default', 'team'] })).toEqual(['people/a:alias', 'people/b:alias']);
  });

  it('weak alias keys need global uniqueness across the scope', () => {
    const split = { 'people/a': { title: 'A One', aliases: ['acey'] }, 'people/b': { title: 'B Two', aliases: ['acey'], source: 'team' } };
    expect(run(split, 'met acey', { scope: ['default'] })).toEqual(['people/a:alias']);
    expect(run(split, 'met acey', { scope: ['default', 'team'] })).toEqual([]);
  });

  it('weak keys do nothing with lexical arms off; surname and CJK arms are off too', () => {
    const pages = {
      'people/saoirse-x': { title: 'Saoirse X', aliases: ['saoirse'] },
      'people/ronan-galewright': { title: 'Ronan Galewright' },
      'people/tanaka': { title: '田中' },
    };
    expect(run(pages, 'saoirse and Galewright and 田中', { lexicalArms: false })).toEqual([]);
    expect(run(pages, 'saoirse and Galewright and 田中')).toHaveLength(3);
  });

  it('two pages with the same title are both title pointers (no uniqueness)', () => {
    const pages = { 'people/a1': { title: 'Alice Example' }, 'people/a2': { title: 'Alice Example' } };
    expect(run(pages, 'Alice Example')).toEqual(['people/a1:title', 'people/a2:title']);
  });

  it('slug-suffix covers exact unprefixed slugs and suffixes after /', () => {
    const pages = { 'alice-example': { title: 'Someone' }, 'deep/people/alice-example': { title: 'Other' }, 'people/xalice-example': { title: 'No' } };
    expect(run(pages, 'Alice Example')).toEqual(['alice-example:slug-suffix', 'deep/people/alice-example:slug-suffix']);
  });

  it('a page whose title matches is a title pointer even when its slug matches too', () => {
    expect(run({ 'people/alice-example': { title: 'Alice Example' } }, 'Alice Example')).toEqual(['people/alice-example:title']);
  });

  it('surname: Jane by title, no surname pointer for John; company pages and near misses never match', () => {
    const pages = { 'people/jane': { title: 'Jane Galewright' }, 'people/john': { title: 'John Galewright' } };
    expect(run(pages, [user('Jane Galewright joined.'), user('Did Galewright follow up?')])).toEqual(['people/jane:title']);
    expect(run({ 'companies/g': { title: 'Acme Galewright', type: 'company' } }, 'Did Galewright call')).toEqual([]);
    expect(run({ 'people/m': { title: 'Ann Marrowfield' } }, 'Did Marrowfielder call')).toEqual([]);
    expect(run({ 'people/m': { title: 'Ann Marrowfield' } }, 'Did Ann call')).toEqual([]);
  });

  it('surname tokens need ≥ 3 characters, no whitespace and a capital first letter', () => {
    expect(run({ 'people/x': { title: 'Bo Ng' } }, 'Ng said')).toEqual([]);
    expect(run({ 'people/x': { title: 'Bo Ngu' } }, 'Ngu said')).toEqual(['people/x:title-surname']);
  });

  it('a strong sighting after a weak one opens the surname arm (deliberate difference)', () => {
    const pages = { 'people/saoirse-kelly': { title: 'Saoirse Kelly' } };
    expect(run(pages, [user('what did kelly say'), assistant('Kelly agreed.')])).toEqual(['people/saoirse-kelly:title-surname']);
  });

  it('a registered CJK alias resolves through alias; a CJK key must name exactly one page', () => {
    expect(run({ 'people/tanaka': { title: 'Tanaka', aliases: ['田中'] } }, '田中さんの会議')).toEqual(['people/tanaka:alias']);
    expect(run({ 'people/t1': { title: '田中' }, 'people/t2': { title: '田中' } }, '田中さんの会議')).toEqual([]);
    expect(run({ '田中': { title: 'Tanaka San' } }, '田中さんの会議')).toEqual(['田中:cjk-title']);
  });

  it('one pointer per page; alias beats title', () => {
    const pages = { 'people/alice-example': { title: 'Alice Example', aliases: ['Alice Example', 'Ali'] } };
    expect(run(pages, 'Alice Example and Ali')).toEqual(['people/alice-example:alias']);
  });

  it('nothing resolves without alias keys; no turns or empty scope → []', () => {
    const index = indexOf(ALICE);
    expect(volunteer([user('the is a')], index, { scope: ['default'] })).toEqual([]);
    expect(volunteer([], index, { scope: ['default'] })).toEqual([]);
    expect(volunteer([user('Alice Example')], index, { scope: [] })).toEqual([]);
    expect(volunteer([user('Alice Example')], index, { scope: ['nope'] })).toEqual([]);
  });
});

describe('privacy and scope', () => {
  const pages: Record<string, PageSpec> = {
    'people/secret': { title: 'Secret Person', aliases: ['Shh', 'shhh'], visibility: 'private' },
    'people/other': { title: 'Other Person', aliases: ['shhh'] },
    'people/team-only': { title: 'Team Person', source: 'team' },
  };

  it('remote callers never see private pages, and they do not count for uniqueness', () => {
    const index = indexOf(pages);
    expect(volunteer([user('Secret Person and Shh')], index, { scope: ['default'], remote: true })).toEqual([]);
    expect(volunteer([user('Secret Person')], index, { scope: ['default'] }).map((p) => p.slug)).toEqual(['people/secret']);
    // "shhh" is declared by the private page and one public page: unique only for remote callers.
    expect(volunteer([user('ask shhh')], index, { scope: ['default'] })).toEqual([]);
    expect(volunteer([user('ask shhh')], index, { scope: ['default'], remote: true }).map((p) => p.slug)).toEqual(['people/other']);
    expect(resolvePointers([user('Secret Person')], index, { scope: ['default'], remote: true })).toEqual([]);
  });

  it('private pages stay private with the gazetteer on', () => {
    const index = indexOf(pages, true);
    expect(volunteer([user('Met Secret Person today')], index, { scope: ['default'], remote: true, gazetteer: true })).toEqual([]);
  });

  it('only sources in scope resolve', () => {
    const index = indexOf(pages);
    expect(volunteer([user('Team Person')], index, { scope: ['default'] })).toEqual([]);
    expect(volunteer([user('Team Person')], index, { scope: ['default', 'team'] }).map((p) => p.source_id)).toEqual(['team']);
    expect(volunteer([user('Met Team Person')], index, { scope: ['default'], gazetteer: true })).toEqual([]);
  });
});

describe('confidence, gate, order, cap', () => {
  it('boosts: alias 0.95, title 0.85, surname 0.77, cjk 0.77, slug 0.65; unboosted bases', () => {
    const pages: Record<string, PageSpec> = {
      'people/swami-x': { title: 'Swami X', aliases: ['Swami'] },
      'people/alice-example': { title: 'Alice Example' },
      'people/ronan-galewright': { title: 'Ronan Galewright' },
      'people/tanaka': { title: '田中' },
      'projects/widget-co': { title: 'Widget Project' },
    };
    const index = indexOf(pages);
    const newest = volunteer([user('Swami, Alice Example, Galewright, 田中 and Widget-Co')], index, { scope: ['default'], minConfidence: 0, maxPages: 5, gazetteer: false });
    expect(newest.map((p) => [p.arm, p.confidence])).toEqual([
      ['alias', 0.9500000000000001],
      ['title', 0.8500000000000001],
      ['title-surname', 0.77],
      ['cjk-title', 0.77],
      ['slug-suffix', 0.65],
    ]);
    const old = volunteer([user('Swami, Alice Example, Galewright, 田中 and Widget-Co'), assistant('ok')], index, {
      scope: ['default'],
      minConfidence: 0,
      maxPages: 5,
      gazetteer: false,
    });
    expect(old.map((p) => [p.arm, p.confidence])).toEqual([
      ['alias', 0.9],
      ['title', 0.8],
      ['title-surname', 0.72],
      ['cjk-title', 0.72],
      ['slug-suffix', 0.6],
    ]);
    expect(old.every((p) => !p.rationale.includes('mentioned'))).toBe(true);
  });

  it('two mentions boost once: "mentioned in 2 of last 3 turns"', () => {
    const [p] = volunteer([user('Alice Example?'), assistant('Alice Example is great'), user('ok')], indexOf(ALICE), { scope: ['default'] });
    expect(p).toMatchObject({ confidence: 0.8500000000000001, rationale: 'exact title match "Alice Example"; mentioned in 2 of last 3 turns' });
  });

  it('a surname hit clears the default gate unboosted', () => {
    const [p] = volunteer([user('Did Galewright call?'), user('ok')], indexOf({ 'people/r': { title: 'Ronan Galewright' } }), { scope: ['default'] });
    expect(p).toMatchObject({ confidence: 0.72, arm: 'title-surname', rationale: 'surname match "Ronan Galewright"' });
  });

  it('gate compares with a 1e-9 tolerance; out-of-range knobs fall back to 0.7', () => {
    const index = indexOf({ 'people/r': { title: 'Ronan Galewright' } });
    const turns = [user('Did Galewright call?'), user('ok')];
    expect(volunteer(turns, index, { scope: ['default'], minConfidence: 0.72 + 5e-10 })).toHaveLength(1);
    expect(volunteer(turns, index, { scope: ['default'], minConfidence: 0.73 })).toHaveLength(0);
    expect(volunteer(turns, index, { scope: ['default'], minConfidence: 5 })).toHaveLength(1);
    expect(volunteer(turns, index, { scope: ['default'], minConfidence: Number.NaN })).toHaveLength(1);
  });

  it('orders by confidence, then first-mention rank, then slug, then scope position; caps', () => {
    const pages: Record<string, PageSpec> = {
      'people/zed': { title: 'Zed Zulu' },
      'people/amy': { title: 'Amy Alpha' },
      'people/bob': { title: 'Bob Beta' },
      'people/cy': { title: 'Cy Gamma' },
      'people/swami': { title: 'Swami X', aliases: ['Swami'] },
    };
    const index = indexOf(pages);
    const text = 'Zed Zulu, Amy Alpha, Bob Beta, Cy Gamma and Swami';
    expect(volunteer([user(text)], index, { scope: ['default'] }).map((p) => p.slug)).toEqual(['people/swami', 'people/zed', 'people/amy']);
    expect(volunteer([user(text)], index, { scope: ['default'], maxPages: 99 }).map((p) => p.slug)).toEqual([
      'people/swami',
      'people/zed',
      'people/amy',
      'people/bob',
      'people/cy',
    ]);
    expect(volunteer([user(text)], index, { scope: ['default'], maxPages: 0 })).toHaveLength(3);
    expect(volunteer([user(text)], index, { scope: ['default'], maxPages: 1.9 })).toHaveLength(1);
  });

  it('equal rank (two pages of one candidate): slug order, then scope position', () => {
    const pages: Record<string, PageSpec> = {
      'people/b': { title: 'Alice Example' },
      'people/a': { title: 'Alice Example' },
      'people/a2': { title: 'Alice Example', source: 'team' },
    };
    const index = indexOf(pages);
    const out = volunteer([user('Alice Example')], index, { scope: ['team', 'default'], maxPages: 5 });
    expect(out.map((p) => `${p.source_id}:${p.slug}`)).toEqual(['default:people/a', 'team:people/a2', 'default:people/b']);
    const index2 = indexOf([
      { source_id: 'x', slug: 'same', title: 'Alice Example', type: 'person', frontmatter: {}, compiled_truth: '', timeline: '' },
      { source_id: 'y', slug: 'same', title: 'Alice Example', type: 'person', frontmatter: {}, compiled_truth: '', timeline: '' },
    ]);
    expect(volunteer([user('Alice Example')], index2, { scope: ['y', 'x'] }).map((p) => p.source_id)).toEqual(['y', 'x']);
  });

  it('exclusion removes pages before gating and capping (any source)', () => {
    const pages: Record<string, PageSpec> = {
      'people/zed': { title: 'Zed Zulu' },
      'people/amy': { title: 'Amy Alpha' },
      'people/bob': { title: 'Bob Beta' },
      'people/cy': { title: 'Cy Gamma', source: 'team' },
    };
    const out = volunteer([user('Zed Zulu, Amy Alpha, Bob Beta, Cy Gamma')], indexOf(pages), {
      scope: ['default', 'team'],
      excludeSlugs: new Set(['people/zed', 'people/amy']),
    });
    expect(out.map((p) => p.slug)).toEqual(['people/bob', 'people/cy']);
    const arr = volunteer([user('Zed Zulu, Amy Alpha')], indexOf(pages), { scope: ['default'], excludeSlugs: ['people/zed'] });
    expect(arr.map((p) => p.slug)).toEqual(['people/amy']);
  });

  it('rationale carries no conversation text beyond the matched surface', () => {
    const secret = 'the password is hunter2';
    const out = volunteer(
      [user(`${secret}. Alice Example knows`), assistant(`${secret} Alice Example`), user(`${secret} again`)],
      indexOf(ALICE),
      { scope: ['default'] },
    );
    expect(out[0].rationale).toBe('exact title match "Alice Example"; mentioned in 2 of last 3 turns');
    for (const word of ['password', 'hunter2', 'knows', 'again']) expect(JSON.stringify(out)).not.toContain(word);
  });

  it('display keeps a possessive surface and the surface as written', () => {
    const [p] = volunteer([user("what is Alice Example's plan")], indexOf(ALICE), { scope: ['default'] });
    expect(p.display).toBe("Alice Example's");
    // A run across a line break keeps its newline in the query, so the title list misses it and
    // only the slug (0.6, under the gate) or the gazetteer (which reads the registered name)
    // reaches the page; either way the display is the candidate's surface, newline included.
    expect(volunteer([user('met Alice\nExample today')], indexOf(ALICE), { scope: ['default'], gazetteer: false })).toEqual([]);
    const [s] = volunteer([user('met Alice\nExample today')], indexOf(ALICE), { scope: ['default'], gazetteer: false, minConfidence: 0 });
    expect(s).toMatchObject({ display: 'Alice\nExample', arm: 'slug-suffix', rationale: 'slug match "Alice\nExample"; mentioned in the newest turn' });
    const [q] = volunteer([user('met Alice\nExample today')], indexOf(ALICE), { scope: ['default'] });
    expect(q).toMatchObject({ display: 'Alice\nExample', arm: 'title' });
  });

  it('works on parsed window text end to end', () => {
    const turns = parseWindowText('user: who knows the round?\nassistant: Alice Example led it.\nuser: what did she invest in?');
    expect(volunteer(turns, indexOf(ALICE), { scope: ['default'] }).map((p) => p.confidence)).toEqual([0.8]);
  });
});

describe('ungated pointers (hook lane and ambient reflex)', () => {
  const pages: Record<string, PageSpec> = {
    'projects/widget-co': { title: 'The Widget Company Project' },
    'people/alice-example': { title: 'Alice Example' },
    'people/swami-x': { title: 'Swami X', aliases: ['Swami'] },
    'people/bob-beta': { title: 'Bob Beta' },
  };

  it('are not gated, carry the base confidence, follow the volunteer order and the cap', () => {
    const index = indexOf(pages);
    const out = resolvePointers([user('Widget-Co, Alice Example, Swami, Bob Beta')], index, { scope: ['default'], gazetteer: false });
    expect(out.map((p) => [p.slug, p.arm, p.confidence, p.rationale])).toEqual([
      ['people/swami-x', 'alias', 0.9, 'alias match "Swami X"'],
      ['people/alice-example', 'title', 0.8, 'title match "Alice Example"'],
      ['people/bob-beta', 'title', 0.8, 'title match "Bob Beta"'],
    ]);
    const all = resolvePointers([user('Widget-Co, Alice Example, Swami, Bob Beta')], index, { scope: ['default'], maxPointers: 10 });
    expect(all.map((p) => [p.arm, p.confidence]).at(-1)).toEqual(['slug-suffix', 0.6]);
    expect(resolvePointers([user('Widget-Co')], index, { scope: ['default'], maxPointers: 0 })).toHaveLength(1);
  });

  it('suppress slugs, and titles only when asked (reflex window 1)', () => {
    const index = indexOf(pages);
    const turns = [user('Alice Example')];
    expect(resolvePointers(turns, index, { scope: ['default'], priorContext: 'people/alice-example' })).toEqual([]);
    expect(resolvePointers(turns, index, { scope: ['default'], priorContext: 'about Alice Example.' })).toHaveLength(1);
    expect(resolvePointers(turns, index, { scope: ['default'], priorContext: 'about Alice Example.', suppressTitles: true })).toEqual([]);
    expect(resolvePointers(turns, index, { scope: ['default'], priorContext: 'about Alice Examples', suppressTitles: true })).toHaveLength(1);
  });

  it('exclusion applies to pointers too', () => {
    const index = indexOf(pages);
    expect(resolvePointers([user('Alice Example')], index, { scope: ['default'], excludeSlugs: ['people/alice-example'] })).toEqual([]);
  });
});
