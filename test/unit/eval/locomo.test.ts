import { describe, expect, it } from 'vitest';
import { scoreFixtures, type BenchReport } from '../../../src/eval/score.js';
import { scoredFixtures, sharedBenchDir } from './bench-dir.js';

const { dir, exists } = sharedBenchDir('locomo');

const misses = (r: BenchReport): string =>
  r.details
    .flatMap((f) => f.turns.filter((t) => t.missed.length > 0 || t.wrong.length > 0).map((t) => `${f.fixture_id}#${t.turn_id} missed=${t.missed} wrong=${t.wrong}`))
    .join('\n');

/** Every session of the five conversations is scored and every seed page is indexed. */
function expectComplete(r: BenchReport): void {
  const expected = scoredFixtures(dir);
  expect(r.details.map((f) => f.fixture_id)).toEqual(expected.ids);
  expect(r.fixtures).toBe(128);
  expect([...new Set(r.details.map((f) => f.fixture_id.replace(/-s\d+$/u, '')))]).toEqual(['locomo-26', 'locomo-30', 'locomo-41', 'locomo-42', 'locomo-43']);
  expect(r.details.flatMap((f) => f.seedErrors)).toEqual([]);
  expect(r.details.reduce((n, f) => n + f.indexedPages, 0)).toBe(expected.seedPages);
}

// 128 sessions through the watch pipeline: seconds alone, much longer on a busy shared machine.
describe.skipIf(!exists)('LoCoMo floors with the gazetteer on', () => {
  it('know-to-ask ≤ 0.02, false fire ≤ 0.002, precision ≥ 0.99, recall ≥ 0.97, no isolation violation', async () => {
    const r = await scoreFixtures(dir, { gazetteer: true });
    expectComplete(r);
    expect(r.knowToAskFailure, misses(r)).toBeLessThanOrEqual(0.02);
    expect(r.falseFire, misses(r)).toBeLessThanOrEqual(0.002);
    expect(r.precision, misses(r)).toBeGreaterThanOrEqual(0.99);
    expect(r.recall, misses(r)).toBeGreaterThanOrEqual(0.97);
    expect(r.sourceIsolationViolations).toBe(0);
  });

  it('spec-exact (gazetteer off) reproduces its known figures: 5/113 know-to-ask failures, 119/129 gold pages', async () => {
    const r = await scoreFixtures(dir, { gazetteer: false });
    expectComplete(r);
    expect(r.counts).toEqual({
      shouldRetrieveTurns: 113,
      knowToAskFailures: 5,
      silentTurns: 1246,
      falseFires: 0,
      volunteeredOnRetrieve: 137,
      relevantOnRetrieve: 137,
      goldTotal: 129,
      goldVolunteered: 119,
      sourceIsolationViolations: 0,
    });
    // The one turn where the reference is reported to do better (docs/push-context.md): the
    // spec's token keeps the trailing hyphen, so "Max-" is no title.
    const maxTurn = r.details.find((f) => f.fixture_id === 'locomo-41-s30')?.turns.find((t) => t.turn_id === 4);
    expect(maxTurn).toMatchObject({ missed: ['pets/max'], volunteered: [] });
  });
});
