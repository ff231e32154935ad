import { describe, expect, it } from 'vitest';
import { scoreFixtures, type BenchReport } from '../../../src/eval/score.js';
import { sharedBenchDir } from './bench-dir.js';

const { dir, exists } = sharedBenchDir('brainbench');

/** Turn-level misses, for a readable failure message. */
const misses = (r: BenchReport): string[] =>
  r.details.flatMap((f) => f.turns.filter((t) => t.missed.length > 0 || t.wrong.length > 0).map((t) => `${f.fixture_id}#${t.turn_id} missed=${t.missed} wrong=${t.wrong}`));

describe.skipIf(!exists)('BrainBench floors (watch channel, window 4, gate 0.7, cap 3)', () => {
  it.each([false, true])('gazetteer %s: know-to-ask 0, false fire 0, precision 1, isolation 0, recall ≥ 0.93', (gazetteer) => {
    const r = scoreFixtures(dir, { gazetteer });
    expect(r.fixtures).toBeGreaterThan(0);
    expect(r.details.flatMap((f) => f.seedErrors)).toEqual([]);
    expect({ knowToAskFailure: r.knowToAskFailure, falseFire: r.falseFire, precision: r.precision, isolation: r.sourceIsolationViolations }).toEqual({
      knowToAskFailure: 0,
      falseFire: 0,
      precision: 1,
      isolation: 0,
    });
    expect(r.recall, misses(r).join('\n')).toBeGreaterThanOrEqual(0.93);
  });
});
