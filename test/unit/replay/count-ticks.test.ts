import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTicks } from '../../../src/replay/count-ticks.js';
import { buildReplayReport } from '../../../src/replay/replay-report.js';
import { renderReplayPlot } from '../../../src/replay/replay-plot.js';
import { fuzzRuns } from '../../support/fuzz.js';

describe('count axis ticks', () => {
  it('step by whole 1-2-5 numbers from 0 to a top at or above the largest count', () => {
    expect(countTicks(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(countTicks(2)).toEqual({ top: 2, ticks: [0, 1, 2] });
    expect(countTicks(3)).toEqual({ top: 3, ticks: [0, 1, 2, 3] });
    expect(countTicks(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(countTicks(23)).toEqual({ top: 25, ticks: [0, 5, 10, 15, 20, 25] });
    expect(countTicks(1234)).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] });
  });

  it('never repeat a tick, always whole, at most five intervals, for any count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), (largest) => {
        const { top, ticks } = countTicks(largest);
        const step = ticks[1]! - ticks[0]!;
        expect(ticks[0]).toBe(0);
        expect(ticks.at(-1)).toBe(top);
        expect(top).toBeGreaterThanOrEqual(largest);
        expect(ticks.length - 1).toBeLessThanOrEqual(5);
        expect(new Set(ticks).size).toBe(ticks.length);
        expect(ticks.every(Number.isInteger)).toBe(true);
        expect(String(step)).toMatch(/^[125]0*$/);
      }),
      fuzzRuns(),
    );
  });
});

describe('the replay plot', () => {
  it('labels the volume axis of a small replay with distinct whole counts', () => {
    const report = buildReplayReport({
      gates: [0.6, 0.8],
      arms: null,
      shards: [{ tallies: [{ title: { volunteered: 2, usedApproximate: 1, usedSession: 1 } }, { title: { volunteered: 1, usedApproximate: 1, usedSession: 1 } }], sessions: ['a'], turns: 3, collected: [] }],
      retrievedInSession: 1,
      since: null,
      maxPages: null,
      skipped: {},
    });
    const svg = renderReplayPlot(report);
    // The volume panel's axis labels are right-aligned just left of the second panel.
    const labels = [...svg.matchAll(/<text x="552" y="[\d.]+" text-anchor="end" font-size="12">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(labels).toEqual(['0', '1', '2']);
  });
});

describe('the replay plot of a learned replay', () => {
  it('draws the learning gate beside the static one, in both panels, and names it', () => {
    const tally = (volunteered: number, used: number) => ({ title: { volunteered, usedApproximate: used, usedSession: used } });
    const report = buildReplayReport({
      gates: [0.6, 0.8],
      arms: null,
      shards: [{ tallies: [tally(8, 4), tally(6, 4)], learnedTallies: [tally(5, 4), tally(4, 4)], sessions: ['a'], turns: 9, collected: [] }],
      retrievedInSession: 5,
      since: null,
      maxPages: null,
      skipped: {},
    });
    const svg = renderReplayPlot(report);
    const learnedPaths = svg.match(/<path d="[^"]+" fill="none" stroke="#7b3294"/g) ?? [];
    // Session and approximate precision in the left panel, volume in the right one.
    expect(learnedPaths).toHaveLength(3);
    expect(svg).toContain('learning gate, all arms');
    expect(svg).toContain('static and learning gates');
    expect(renderReplayPlot({ ...report, learned: undefined })).not.toContain('#7b3294');
  });
});
