import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreFixtures } from '../../../src/eval/score.js';

function benchDir(fixtures: Array<{ fixture: object; gold?: object }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  mkdirSync(join(dir, 'fixtures'));
  mkdirSync(join(dir, 'gold'));
  for (const { fixture, gold } of fixtures) {
    const id = (fixture as { fixture_id: string }).fixture_id;
    writeFileSync(join(dir, 'fixtures', `${id}.fixture.json`), JSON.stringify(fixture));
    if (gold) writeFileSync(join(dir, 'gold', `${id}.gold.json`), JSON.stringify(gold));
  }
  return dir;
}

const fixture = (id: string, extra: object) => ({ schema_version: 1, fixture_id: id, suites: ['know-to-ask', 'push'], ...extra });

describe('scoreFixtures', () => {
  it('micro-averages the README metrics over every scored turn', async () => {
    const dir = benchDir([
      {
        fixture: fixture('a', {
          seed_pages: [
            { slug: 'people/alice-example', content: '---\ntitle: Alice Example\n---\nAlice is a founder.' },
            // Title from the H1, type from the folder.
            { slug: 'people/ronan-galewright', content: '# Ronan Galewright\n\nInvestor.' },
            // Title from the slug's last segment.
            { slug: 'companies/widget-co', content: 'No title here.' },
          ],
          turns: [
            { turn_id: 1, role: 'user', text: 'Catch me up on Alice Example.' },
            { turn_id: 2, role: 'assistant', text: 'Sure.' },
            { turn_id: 3, role: 'user', text: 'Did Galewright and Widget Co reply?' },
            { turn_id: 4, role: 'user', text: 'And the weather?' },
          ],
        }),
        gold: {
          fixture_id: 'a',
          turns: {
            '1': { should_retrieve: true, gold_slugs: ['people/alice-example'] },
            '3': { should_retrieve: true, gold_slugs: ['people/ronan-galewright', 'people/missing'], acceptable_slugs: ['companies/widget-co'] },
            '4': { should_retrieve: false },
          },
        },
      },
      {
        fixture: fixture('b', {
          active_source: 'team',
          seed_pages: [
            { slug: 'people/bob', content: '---\ntitle: Bob Sample\n---\n', source_id: 'team' },
            { slug: 'people/eve', content: '---\ntitle: Eve Other\n---\n' },
            { slug: 'people/bad', content: '---\ntitle: [unclosed\n---\n' },
          ],
          turns: [
            { turn_id: 1, role: 'user', text: 'Bob Sample and Eve Other' },
            { turn_id: 2, role: 'user', text: 'nothing here' },
          ],
        }),
        gold: { fixture_id: 'b', turns: { '1': { should_retrieve: true, gold_slugs: ['people/eve'] }, '2': { should_retrieve: false } } },
      },
      { fixture: { ...fixture('c', { turns: [{ turn_id: 1, role: 'user', text: 'x' }] }), suites: ['write-back'] }, gold: { fixture_id: 'c', turns: {} } },
    ]);
    const r = await scoreFixtures(dir, { gazetteer: false });
    expect(r.fixtures).toBe(2);
    expect(r.details[1].seedErrors).toHaveLength(1);
    expect(r.details.map((d) => [d.seedPages, d.indexedPages])).toEqual([[3, 3], [3, 2]]);
    expect(r.counts).toEqual({
      shouldRetrieveTurns: 3,
      knowToAskFailures: 1,
      silentTurns: 2,
      falseFires: 0,
      volunteeredOnRetrieve: 4,
      relevantOnRetrieve: 3,
      goldTotal: 4,
      goldVolunteered: 2,
      sourceIsolationViolations: 0,
    });
    expect(r.knowToAskFailure).toBeCloseTo(1 / 3, 12);
    expect(r.precision).toBe(0.75);
    expect(r.recall).toBe(0.5);
    expect(r.details[0].turns[2].volunteered.map((p) => `${p.slug}:${p.arm}`)).toEqual(['companies/widget-co:title', 'people/ronan-galewright:title-surname']);
    expect(r.details[0].turns[2]).toMatchObject({ missed: ['people/missing'], wrong: [] });
    expect(r.details[1].turns[0]).toMatchObject({ missed: ['people/eve'], wrong: ['people/bob'] });
  });

  it('replays each turn as a watch stdin line: a blank turn is skipped and takes no window slot', async () => {
    const dir = benchDir([
      {
        fixture: fixture('w', {
          seed_pages: [
            { slug: 'people/alice-example', content: '---\ntitle: Alice Example\n---\n' },
            { slug: 'people/bob-sample', content: '---\ntitle: Bob Sample\n---\n' },
            { slug: 'people/carol-demo', content: '---\ntitle: Carol Demo\n---\n' },
          ],
          turns: [
            { turn_id: 1, role: 'user', text: 'Alice Example and Bob Sample met.' },
            { turn_id: 2, role: 'assistant', text: '   ' },
            { turn_id: 3, role: 'user', text: 'ok' },
            // One turn, whatever its line breaks: watch reads it as one line.
            { turn_id: 4, role: 'assistant', text: 'noted\nuser: Carol Demo joins' },
          ],
        }),
        gold: {
          fixture_id: 'w',
          turns: {
            '1': { should_retrieve: true, gold_slugs: ['people/alice-example'], acceptable_slugs: ['people/bob-sample'] },
            '3': { should_retrieve: true, gold_slugs: ['people/bob-sample'] },
            '4': { should_retrieve: true, gold_slugs: ['people/carol-demo'] },
          },
        },
      },
    ]);
    // Window 2, cap 1: Bob is still in the window at turn 3 only because the blank line was no turn.
    const r = await scoreFixtures(dir, { gazetteer: false, windowTurns: 2, maxPages: 1 });
    expect(r.details[0].turns.map((t) => [t.turn_id, t.role, t.volunteered.map((p) => p.slug)])).toEqual([
      [1, 'user', ['people/alice-example']],
      [2, 'assistant', []],
      [3, 'user', ['people/bob-sample']],
      [4, 'assistant', ['people/carol-demo']],
    ]);
    expect(r.recall).toBe(1);
  });

  it('a fixture without its gold file is an error, not an unscored fixture', async () => {
    const dir = benchDir([{ fixture: fixture('lonely', { turns: [{ turn_id: 1, role: 'user', text: 'x' }] }) }]);
    await expect(scoreFixtures(dir)).rejects.toThrow(/fixture lonely has no gold file: expected .*lonely\.gold\.json/);
  });

  it('gold for a turn the fixture does not have, or for another fixture, is an error', async () => {
    const turns = [{ turn_id: 1, role: 'user', text: 'x' }];
    const unknownTurn = benchDir([{ fixture: fixture('e', { turns }), gold: { fixture_id: 'e', turns: { '7': { should_retrieve: false } } } }]);
    await expect(scoreFixtures(unknownTurn)).rejects.toThrow(/scores turns the fixture does not have: 7/);
    const other = benchDir([{ fixture: fixture('f', { turns }), gold: { fixture_id: 'g', turns: {} } }]);
    await expect(scoreFixtures(other)).rejects.toThrow(/is for fixture g, not f/);
  });

  it('a seed page repeating a slug is a seed error', async () => {
    const dir = benchDir([
      {
        fixture: fixture('dup', {
          seed_pages: [
            { slug: 'people/bob', content: '---\ntitle: Bob Sample\n---\n' },
            { slug: 'people/bob', content: '---\ntitle: Robert Sample\n---\n' },
          ],
          turns: [{ turn_id: 1, role: 'user', text: 'Bob Sample' }],
        }),
        gold: { fixture_id: 'dup', turns: {} },
      },
    ]);
    const [d] = (await scoreFixtures(dir)).details;
    expect(d.seedErrors).toEqual(['people/bob: a second page with this slug in source default']);
    expect([d.seedPages, d.indexedPages]).toEqual([2, 1]);
  });
});
