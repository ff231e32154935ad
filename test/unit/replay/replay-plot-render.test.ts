import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sampleReplayPlot } from '../../support/sample-replay-plot.js';

// librsvg is the renderer of most Linux image viewers and of many documentation pipelines: if it
// reads the plot cleanly, the SVG is standard, not something only one browser forgives.
const hasRsvg = spawnSync('rsvg-convert', ['--version']).status === 0;
if (process.env.CI === 'true' && !hasRsvg) throw new Error('the replay plot render check needs rsvg-convert (Debian package librsvg2-bin) in CI');

describe.skipIf(!hasRsvg)('the replay plot rendered by librsvg', () => {
  it('renders to a PNG of the declared size without a warning', () => {
    const r = spawnSync('rsvg-convert', ['--format', 'png'], { input: sampleReplayPlot() });
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    const png = r.stdout;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // The IHDR chunk holds the width and height as big-endian 32-bit numbers.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([980, 510]);
  });
});
