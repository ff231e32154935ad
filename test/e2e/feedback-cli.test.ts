import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrain } from '../../src/brain/brain.js';
import { volunteered } from '../support/feedback-log.js';
import { tempDir } from '../support/cli.js';
import { openCliSession, type CliSession } from '../support/cli-session.js';

const home = tempDir('bs-feedback-home-');
let session: CliSession;
const cli = (args: string[], input?: string) => session.run(args, { input });
const DAY = 86_400_000;

beforeAll(async () => {
  // Two old deliveries (the purge's business) and a log entry of a version this build does not know.
  const brain = await openBrain(home.path);
  await brain.commit([
    volunteered('old-1', 'people/alice-example', 'title', 'op', null, new Date(Date.now() - 120 * DAY).toISOString()),
    volunteered('old-2', 'people/alice-example', 'title', 'op', null, new Date(Date.now() - 100 * DAY).toISOString()),
  ]);
  await brain.db.query(`INSERT INTO events (id, topic, type, v, key, at, data) VALUES ('from-the-future', 'turns', 'turn.appended', 9, 'one', now(), '{}'::jsonb)`);
  await brain.close();
  session = await openCliSession(home.path);
  expect((await cli(['import', 'docs/examples/brain'])).code).toBe(0);
  const transcript = readFileSync('docs/examples/transcript.txt', 'utf8');
  expect((await cli(['watch', '--session-id', 'one'], transcript)).code).toBe(0);
  expect((await cli(['watch', '--session-id', 'two', '--max-pages', '1'], transcript)).code).toBe(0);
  expect((await cli(['page', 'get', 'people/alice-example', '--session', 'one'])).code).toBe(0);
});

afterAll(async () => {
  await session.close();
  home.cleanup();
});

describe('volunteer-context --stats: bad --days', () => {
  it('non-numeric is a usage error (exit 2) naming the flag', async () => {
    const r = await cli(['volunteer-context', '--stats', '--days', 'abc']);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'brainstream: --days expects a number, got "abc"\n' });
  });

  it('no --days means 30; out-of-range counts are usage errors (test/integration/cli/number-limits.test.ts)', async () => {
    const r = await cli(['volunteer-context', '--stats', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ days: 30, attribution: 'approximate' });
  });

  it('an unknown attribution is a usage error', async () => {
    expect(await cli(['volunteer-context', '--stats', '--attribution', 'exact'])).toMatchObject({ code: 2, stderr: 'brainstream: --attribution expects approximate or session, got "exact"\n' });
  });
});

describe('brainstream stats', () => {
  it('groups by the dimensions asked for, in json, csv and table, and agrees with --stats', async () => {
    const json = JSON.parse((await cli(['stats', '--by', 'arm,channel', '--json'])).stdout);
    const session = JSON.parse((await cli(['volunteer-context', '--stats', '--attribution', 'session', '--json'])).stdout);
    const recent = json.rows.filter((r: { channel: string }) => r.channel === 'watch');
    expect(recent.map((r: Record<string, unknown>) => [r.match_arm, r.volunteered, r.used_attributed])).toEqual(
      session.by_arm.map((r: Record<string, unknown>) => [r.match_arm, r.volunteered, r.used]),
    );
    expect(json.total.volunteered).toBe(session.total_volunteered + 2);
    const csv = (await cli(['stats', '--by', 'source', '--format', 'csv'])).stdout.split('\r\n');
    expect(csv[0]).toBe('source_id,volunteered,used_approximate,used_attributed,precision_approximate,precision_attributed');
    expect(csv[1]).toMatch(/^default,\d+,\d+,\d+,/);
    const table = (await cli(['stats', '--by', 'arm'])).stdout;
    expect(table).toMatch(/^arm +volunteered +used \(approx\) +used \(session\) +precision \(approx\) +precision \(session\)$/m);
    expect(table).toMatch(/^total +\d+/m);
  });

  it('filters by day: an empty range prints a clear line', async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(JSON.parse((await cli(['stats', '--since', today, '--json'])).stdout).total.volunteered).toBeGreaterThan(0);
    expect((await cli(['stats', '--until', '2000-01-01'])).stdout).toContain('(no usage statistics in the range)');
  });

  it.each([
    [['--by', 'week'], 'brainstream: --by: unknown dimension "week" (dimensions: day, arm, channel, source)'],
    [['--by', ''], 'brainstream: --by expects one or more of day, arm, channel, source, got ""'],
    [['--format', 'xml'], 'brainstream: --format expects table, json, csv, got "xml"'],
    [['--since', '2999-01-01'], /^brainstream: --since 2999-01-01 is in the future \(now .*\): nothing could match$/],
    [['--since', '2026-02-31'], 'brainstream: --since expects a date (YYYY-MM-DD) or an ISO 8601 time, got "2026-02-31"'],
    [['--since', '2026-03-02', '--until', '2026-03-01'], 'brainstream: the range is reversed: --since 2026-03-02 is after --until 2026-03-01'],
  ])('%j is a usage error', async (args, message) => {
    const r = await cli(['stats', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
  });
});

describe('brainstream replay', () => {
  it('reports every gate and arm, skips the unknown version with a count, and writes nothing', async () => {
    const before = (await cli(['stats', '--json'])).stdout;
    const r = await cli(['replay', '--min-confidence', '0.6:0.9:0.1', '--workers', '0', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.thresholds.map((t: { min_confidence: number }) => t.min_confidence)).toEqual([0.6, 0.7, 0.8, 0.9]);
    expect(report).toMatchObject({ skipped_events: 1, skipped_reasons: { 'unknown version 9 of event type "turn.appended"': 1 }, sessions: 2 });
    expect((await cli(['stats', '--json'])).stdout).toBe(before);
    const human = (await cli(['replay', '--min-confidence', '0.7'])).stdout;
    expect(human).toContain('skipped 1 log entry that could not be decoded: unknown version 9 of event type "turn.appended" ×1');
    expect(human).toMatch(/^0\.70\* +all +\d+/m);
  });

  it('gives the same figures on worker threads as in one thread', async () => {
    const one = await cli(['replay', '--workers', '0', '--json']);
    const two = await cli(['replay', '--workers', '2', '--json']);
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout)).toEqual(JSON.parse(one.stdout));
  });

  it('restricts the report to the arms named, and writes an SVG plot', async () => {
    const plot = join(home.path, 'replay.svg');
    const r = await cli(['replay', '--arms', 'title,alias', '--plot', plot, '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.arms).toEqual(['alias', 'title']);
    expect(report.thresholds[0].by_arm.map((a: { match_arm: string }) => a.match_arm)).toEqual(['alias', 'title']);
    expect(report.plot).toBe(plot);
    const svg = readFileSync(plot, 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('Precision');
    expect(svg).toContain('>alias</text>');
  });

  it('--learned scores the learning gate on the same turns, in the JSON, the table and the plot', async () => {
    const plot = join(home.path, 'learned.svg');
    const r = await cli(['replay', '--learned', '--min-confidence', '0.6:0.8:0.1', '--plot', plot, '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.learned.map((t: { min_confidence: number }) => t.min_confidence)).toEqual(report.thresholds.map((t: { min_confidence: number }) => t.min_confidence));
    for (const row of report.learned) {
      expect(row).toMatchObject({ volunteered: expect.any(Number), precision_session: expect.any(Number), precision_approximate: expect.any(Number), recall: expect.any(Number) });
      expect(row.by_arm.map((a: { match_arm: string }) => a.match_arm)).toEqual(report.arms);
    }
    expect(readFileSync(plot, 'utf8')).toContain('learning gate, all arms');
    const human = await cli(['replay', '--learned', '--min-confidence', '0.7']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('learning gate (retrieval.reflex.learning) on the same turns:');
    expect(human.stdout).toContain('static → learning gate:');
  });

  it.each([
    [['--min-confidence', '0.9:0.6:0.05'], 'brainstream: --min-confidence: the range "0.9:0.6:0.05" is reversed (start 0.9 > end 0.6)'],
    [['--min-confidence', '0.6:0.9:0'], 'brainstream: --min-confidence: the range "0.6:0.9:0" is empty (the step must be > 0)'],
    [['--min-confidence', 'high'], 'brainstream: --min-confidence expects numbers, got "high" in "high"'],
    [['--arms', 'alias,psychic'], 'brainstream: --arms: unknown arm "psychic" (arms: alias, title, title-surname, cjk-title, slug-suffix)'],
    [['--since', '2999-01-01T00:00:00Z'], 'brainstream: --since 2999-01-01T00:00:00Z is in the future'],
    [['--max-pages', 'abc'], 'brainstream: --max-pages expects a number, got "abc"'],
    [['--workers', '-1'], 'brainstream: --workers expects a whole number of at least 0, got "-1"'],
  ])('%j is a usage error', async (args, message) => {
    const r = await cli(['replay', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith(message)).toBe(true);
  });

  it('is owner-only: it reads every logged conversation', async () => {
    expect(await cli(['--as', 'remote', 'replay'])).toMatchObject({ code: 1, stderr: 'brainstream: owner_only: replay is an owner-only command\n' });
  });
});

describe('brainstream rebuild', () => {
  it('checks and rebuilds every projection; the live tables were byte-identical', async () => {
    const check = await cli(['rebuild', '--check']);
    expect(check.code).toBe(0);
    expect(check.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^checked pages: identical to a rebuild from sequence 0 \(pages \d+ rows\)$/),
      expect.stringMatching(/^checked retrievals: identical/),
      expect.stringMatching(/^checked volunteer-events: identical/),
      expect.stringMatching(/^checked usage-stats: identical/),
      expect.stringMatching(/^checked learning: identical/),
      expect.stringMatching(/^checked core-revisions: identical/),
      expect.stringMatching(/^checked core-notices: identical/),
      expect.stringMatching(/^checked facts: identical/),
      expect.stringMatching(/^checked remember-requests: identical/),
    ]);
    const r = JSON.parse((await cli(['rebuild', 'usage-stats', 'pages', '--json'])).stdout);
    expect(r.projections.map((p: { projection: string; changed: number; swapped: boolean }) => [p.projection, p.changed, p.swapped])).toEqual([
      ['usage-stats', 0, true],
      ['pages', 0, true],
    ]);
    // Not a terminal: no progress bar on stderr.
    expect(check.stderr).toBe('');
  });

  it('an unknown projection is a usage error listing the known ones', async () => {
    expect(await cli(['rebuild', 'pages', 'everything'])).toMatchObject({
      code: 2,
      stderr: 'brainstream: unknown projection "everything" (projections: pages, retrievals, volunteer-events, usage-stats, learning, core-revisions, core-notices, facts, remember-requests)\n',
    });
  });
});

describe('brainstream purge', () => {
  it.each([
    [['--ttl-days', 'abc'], 'brainstream: --ttl-days expects a number, got "abc"\n'],
    [['--ttl-days', '0'], 'brainstream: --ttl-days expects a whole number from 1 to 36500, got "0"\n'],
    [['--batch-size', '0'], 'brainstream: --batch-size expects a whole number of at least 1, got "0"\n'],
  ])('%j is a usage error', async (args, stderr) => {
    expect(await cli(['purge', ...args])).toMatchObject({ code: 2, stdout: '', stderr });
  });

  it('a dry run counts, then the purge deletes by event time and prints the purged count', async () => {
    expect(JSON.parse((await cli(['purge', '--dry-run', '--json'])).stdout)).toMatchObject({ purged: 0, would_purge: 2, dry_run: true });
    expect((await cli(['purge', '--ttl-days', '110', '--dry-run'])).stdout).toMatch(/^would purge 1 stale volunteer event\(s\) \(volunteered before .*\)\n$/);
    const r = await cli(['purge', '--ttl-days', '110']);
    expect(r).toMatchObject({ code: 0, stdout: 'purged 1 stale volunteer event(s)\n', stderr: '' });
    expect((await cli(['purge', '--json'])).stdout).toBe('{"purged":1}\n');
    expect((await cli(['purge', '--json'])).stdout).toBe('{"purged":0}\n');
    // The purge is in the log: a rebuild keeps the purged events purged.
    expect((await cli(['rebuild', '--check'])).stdout).not.toContain('differ');
  });

  it('uses memory.volunteer.retention_days from the config, and is owner-only', async () => {
    expect((await cli(['config', 'set', 'memory.volunteer.retention_days', '1'])).code).toBe(0);
    expect(JSON.parse((await cli(['purge', '--dry-run', '--json'])).stdout).purged_before.slice(0, 10)).toBe(new Date(Date.now() - DAY).toISOString().slice(0, 10));
    expect(await cli(['--as', 'remote', 'purge'])).toMatchObject({ code: 1, stderr: 'brainstream: owner_only: purge is an owner-only command\n' });
    expect(existsSync(join(home.path, 'config.json'))).toBe(true);
  });
});
