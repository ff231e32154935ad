import { buildReplayReport } from '../../src/replay/replay-report.js';
import { renderReplayPlot } from '../../src/replay/replay-plot.js';

/** The SVG of a small replay (five gates, two arms, two sessions): what the render checks draw. */
export function sampleReplayPlot(): string {
  const report = buildReplayReport({
    gates: [0.5, 0.6, 0.7, 0.8, 0.9],
    arms: null,
    shards: [{ tallies: [0, 1, 2, 3, 4].map((i) => ({ title: { volunteered: 7 - i, usedApproximate: 4 - (i >> 1), usedSession: 3 - (i >> 1) }, alias: { volunteered: 2, usedApproximate: 2, usedSession: 1 } })), sessions: ['a', 'b'], turns: 40, collected: [] }],
    retrievedInSession: 6,
    since: null,
    maxPages: null,
    skipped: {},
  });
  return renderReplayPlot(report);
}
