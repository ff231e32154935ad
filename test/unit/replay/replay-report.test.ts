import { describe, expect, it } from 'vitest';
import { buildReplayReport } from '../../../src/replay/replay-report.js';
import { renderReplayPlot } from '../../../src/replay/replay-plot.js';
import { renderReplay } from '../../../src/replay/replay-render.js';
import type { ShardResult } from '../../../src/replay/replay-types.js';

const shard = (tallies: ShardResult['tallies'], sessions: string[], turns: number): ShardResult => ({ tallies, sessions, turns, collected: [] });

const report = (arms: string[] | null = null) =>
  buildReplayReport({
    gates: [0.6, 0.7, 0.8],
    arms,
    shards: [
      shard([{ title: { volunteered: 4, usedApproximate: 3, usedSession: 2 }, 'slug-suffix': { volunteered: 2, usedApproximate: 0, usedSession: 0 } }, { title: { volunteered: 4, usedApproximate: 3, usedSession: 2 } }, {}], ['a'], 10),
      shard([{ alias: { volunteered: 3, usedApproximate: 3, usedSession: 3 } }, { alias: { volunteered: 3, usedApproximate: 3, usedSession: 3 } }, { alias: { volunteered: 3, usedApproximate: 3, usedSession: 3 } }], ['b', 'c'], 20),
    ],
    retrievedInSession: 8,
    since: null,
    maxPages: null,
    skipped: { 'unknown version 9 of event type "turn.appended"': 2 },
  });

describe('replay report', () => {
  it('sums the shards per gate and arm, in arm order, with precisions and recall', () => {
    const r = report();
    expect(r).toMatchObject({ turns: 30, sessions: 3, arms: ['alias', 'title', 'slug-suffix'], retrieved_in_session: 8, skipped_events: 2 });
    expect(r.thresholds[0]).toMatchObject({ min_confidence: 0.6, volunteered: 9, used_approximate: 6, used_session: 5, precision_session: 0.556, recalled: 5, recall: 0.625 });
    expect(r.thresholds[2]!.by_arm).toEqual([
      { match_arm: 'alias', volunteered: 3, used_approximate: 3, used_session: 3, precision_approximate: 1, precision_session: 1 },
      { match_arm: 'title', volunteered: 0, used_approximate: 0, used_session: 0, precision_approximate: 0, precision_session: 0 },
      { match_arm: 'slug-suffix', volunteered: 0, used_approximate: 0, used_session: 0, precision_approximate: 0, precision_session: 0 },
    ]);
  });

  it('restricts rows and totals to the arms asked for', () => {
    const r = report(['alias']);
    expect(r.arms).toEqual(['alias']);
    expect(r.thresholds.map((t) => t.volunteered)).toEqual([3, 3, 3]);
  });

  it('renders a table marking the default gate and naming skipped entries', () => {
    const text = renderReplay(report());
    expect(text).toContain('skipped 2 log entries that could not be decoded: unknown version 9 of event type "turn.appended" ×2');
    expect(text).toMatch(/^0\.70\* +all +7 +6 +5 +0\.857 +0\.714 +0\.625$/m);
    expect(text).toMatch(/^ +slug-suffix +2 +0 +0 +0 +0$/m);
  });

  it('plots one line per arm and the total, breaking precision where an arm volunteered nothing', () => {
    const svg = renderReplayPlot(report());
    // Precision: a solid and a dashed line per series; volume: one line per series.
    expect(svg.match(/<path /g)).toHaveLength(4 * 2 + 4);
    for (const arm of ['all arms', 'alias', 'title', 'slug-suffix']) expect(svg).toContain(`>${arm}</text>`);
    // title volunteered nothing at 0.8: its precision lines stop at 0.7 (two points each, no third).
    const titlePrecision = [...svg.matchAll(/<path d="([^"]*)" fill="none" stroke="#e69f00"/g)].map((m) => m[1]!.split(' ').length);
    expect(titlePrecision).toEqual([2, 2, 3]);
  });
});
