import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildReplayReport } from '../../../src/replay/replay-report.js';
import { renderReplayPlot } from '../../../src/replay/replay-plot.js';

// librsvg is the renderer of most Linux image viewers and of many documentation pipelines: if it
// reads the plot cleanly, the SVG is standard, not something only one browser forgives.
const hasRsvg = spawnSync('rsvg-convert', ['--version']).status === 0;
if (process.env.CI === 'true' && !hasRsvg) throw new Error('the replay plot render check needs rsvg-convert (Debian package librsvg2-bin) in CI');

describe.skipIf(!hasRsvg)('the replay plot rendered by librsvg', () => {
  it('renders to a PNG of the declared size without a warning', () => {
    const report = buildReplayReport({
      gates: [0.5, 0.6, 0.7, 0.8, 0.9],
      arms: null,
      shards: [{ tallies: [0, 1, 2, 3, 4].map((i) => ({ title: { volunteered: 7 - i, usedApproximate: 4 - (i >> 1), usedSession: 3 - (i >> 1) }, alias: { volunteered: 2, usedApproximate: 2, usedSession: 1 } })), sessions: ['a', 'b'], turns: 40, collected: [] }],
      retrievedInSession: 6,
      since: null,
      maxPages: null,
      skipped: {},
    });
    const r = spawnSync('rsvg-convert', ['--format', 'png'], { input: renderReplayPlot(report) });
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    const png = r.stdout;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The IHDR chunk holds the width and height as big-endian 32-bit numbers.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([980, 510]);
  });
});
