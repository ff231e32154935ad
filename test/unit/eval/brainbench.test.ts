import { describe, expect, it } from 'vitest';
import { scoreFixtures, type BenchReport } from '../../../src/eval/score.js';
import { scoredFixtures, sharedBenchDir } from './bench-dir.js';

const { dir, exists } = sharedBenchDir('brainbench');

/** Turn-level misses, for a readable failure message. */
const misses = (r: BenchReport): string[] =>
  r.details.flatMap((f) => f.turns.filter((t) => t.missed.length > 0 || t.wrong.length > 0).map((t) => `${f.fixture_id}#${t.turn_id} missed=${t.missed} wrong=${t.wrong}`));

describe.skipIf(!exists)('BrainBench floors (watch channel, window 4, gate 0.7, cap 3)', () => {
  it.each([false, true])('gazetteer %s: know-to-ask 0, false fire 0, precision 1, isolation 0, recall ≥ 0.93', async (gazetteer) => {
    const r = await scoreFixtures(dir, { gazetteer });
    // Every know-to-ask and push fixture is scored (the folder holds 77), every seed page indexed.
    const expected = scoredFixtures(dir);
    expect(r.details.map((f) => f.fixture_id)).toEqual(expected.ids);
    expect(r.fixtures).toBe(77);
    expect(r.details.flatMap((f) => f.seedErrors)).toEqual([]);
    expect(r.details.reduce((n, f) => n + f.indexedPages, 0)).toBe(expected.seedPages);
    expect({ knowToAskFailure: r.knowToAskFailure, falseFire: r.falseFire, precision: r.precision, isolation: r.sourceIsolationViolations }).toEqual({
      knowToAskFailure: 0,
      falseFire: 0,
      precision: 1,
      isolation: 0,
    });
    expect(r.recall, misses(r).join('\n')).toBeGreaterThanOrEqual(0.93);
  });
});
