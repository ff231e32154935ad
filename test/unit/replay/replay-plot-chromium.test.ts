import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleReplayPlot } from '../../support/sample-replay-plot.js';
import { tempDir } from '../../support/cli.js';
import { decodePng, inkByTile } from '../../support/png.js';

// The plot is read in browsers far more than in image viewers: headless Chromium must draw it as
// librsvg does — same size, not blank, the ink in the same places. Fonts differ slightly between
// the two, so the ink is compared per tile within a tolerance, not pixel by pixel.
const hasChromium = spawnSync('chromium', ['--version']).status === 0;
const hasRsvg = spawnSync('rsvg-convert', ['--version']).status === 0;
const underCi = process.env.CI === 'true';
if (underCi && !hasChromium) throw new Error('the replay plot browser check needs chromium (Debian package chromium) in CI');
if (underCi && !hasRsvg) throw new Error('the replay plot browser check needs rsvg-convert (Debian package librsvg2-bin) in CI');
if (!hasChromium || !hasRsvg) console.warn(`skipping the replay plot browser check: ${hasChromium ? '' : 'chromium '}${hasRsvg ? '' : 'rsvg-convert '}not installed`);

const COLS = 4;
const ROWS = 3;

describe.skipIf(!hasChromium || !hasRsvg)('the replay plot rendered by headless Chromium', () => {
  it('draws what librsvg draws: the same size, not blank, the ink in the same places', () => {
    const svg = sampleReplayPlot();
    const [width, height] = [/width="(\d+)"/.exec(svg)![1], /height="(\d+)"/.exec(svg)![1]].map(Number) as [number, number];
    const dir = tempDir('bs-plot-');
    try {
      writeFileSync(join(dir.path, 'plot.svg'), svg);
      const shot = join(dir.path, 'chromium.png');
      const c = spawnSync(
        'chromium',
        ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--user-data-dir=${join(dir.path, 'profile')}`, `--window-size=${width},${height}`, `--screenshot=${shot}`, `file://${join(dir.path, 'plot.svg')}`],
        { encoding: 'utf8', env: { ...process.env, HOME: dir.path } },
      );
      expect(c.status, c.stderr).toBe(0);
      const browser = decodePng(readFileSync(shot));
      const r = spawnSync('rsvg-convert', ['--format', 'png'], { input: svg });
      expect(r.status, r.stderr.toString()).toBe(0);
      const librsvg = decodePng(r.stdout);

      expect([browser.width, browser.height]).toEqual([width, height]);
      expect([librsvg.width, librsvg.height]).toEqual([width, height]);
      const [inkB] = inkByTile(browser, 1, 1);
      const [inkR] = inkByTile(librsvg, 1, 1);
      const summary = `ink: chromium ${inkB}, librsvg ${inkR}; by tile chromium ${inkByTile(browser, COLS, ROWS).map((v) => v.toFixed(4))}, librsvg ${inkByTile(librsvg, COLS, ROWS).map((v) => v.toFixed(4))}`;
      // Lines, dots and text cover a few percent of the plot: neither render is blank or a smear.
      for (const ink of [inkB!, inkR!]) expect(ink > 0.01 && ink < 0.3, summary).toBe(true);
      expect(Math.abs(inkB! - inkR!) / inkR!, summary).toBeLessThan(0.25);
      const tilesB = inkByTile(browser, COLS, ROWS);
      const tilesR = inkByTile(librsvg, COLS, ROWS);
      for (let t = 0; t < tilesR.length; t++) expect(Math.abs(tilesB[t]! - tilesR[t]!), summary).toBeLessThan(Math.max(0.005, 0.35 * tilesR[t]!));
    } finally {
      dir.cleanup();
    }
  });
});
