import { describe, expect, it } from 'vitest';
import { Brain, openBrainOn } from '../../../src/brain/brain.js';
import type { Db } from '../../../src/db/db.js';
import { startPurgeSchedule } from '../../../projections/purge-schedule.js';
import { purgeQuietly, purgeVolunteerEvents } from '../../../projections/volunteer-purge.js';
import { storageDrivers } from '../../support/databases.js';
import { retrieval, upsertPage, volunteered } from '../../support/feedback-log.js';

const drivers = await storageDrivers();
const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;
const ago = (days: number, ms = 0, now = NOW): string => new Date(now.getTime() - days * DAY - ms).toISOString();

async function ids(db: Db): Promise<string[]> {
  return (await db.query<{ id: string }>('SELECT id FROM context_volunteer_events ORDER BY id')).map((r) => r.id);
}

/** `slack` keeps the 90-day event on the fresh side when the purge runs a little later (wall clock). */
async function seeded(open: () => Promise<Db>, now = NOW, slack = 0): Promise<Brain> {
  const brain = await openBrainOn(await open());
  await brain.commit([upsertPage('people/alice', 'Alice Example', ago(200, 0, now))]);
  await brain.commit([
    volunteered('d089', 'people/alice', 'title', 'watch', 's1', ago(89, 0, now)),
    volunteered('d090', 'people/alice', 'title', 'watch', 's2', ago(90, -slack, now)),
    volunteered('d090-1ms', 'people/alice', 'title', 'watch', 's3', ago(90, 1, now)),
    volunteered('d091', 'people/alice', 'title', 'watch', 's4', ago(91, 0, now)),
  ]);
  return brain;
}

describe.each(drivers)('purge on $name', ({ open }) => {
  it('deletes by event time: 91 days and 90 days + 1 ms go, exactly 90 and 89 days stay', async () => {
    const brain = await seeded(open);
    const result = await purgeVolunteerEvents(brain, { ttlDays: 90, now: NOW });
    expect(result).toEqual({ purged: 2, purgedBefore: ago(90), ttlDays: 90 });
    expect(await ids(brain.db)).toEqual(['d089', 'd090']);
    expect(await brain.db.query<{ id: string }>('SELECT id FROM usage_facts ORDER BY id')).toEqual([{ id: 'd089' }, { id: 'd090' }]);
    // The daily aggregates outlive the per-event retention.
    const [total] = await brain.db.query<{ n: number }>('SELECT sum(volunteered)::int AS n FROM usage_stats');
    expect(total!.n).toBe(4);
    expect(await purgeVolunteerEvents(brain, { ttlDays: 90, now: NOW })).toMatchObject({ purged: 0 });
  });

  it('a dry run counts and deletes nothing; the retention is a parameter', async () => {
    const brain = await seeded(open);
    expect(await purgeVolunteerEvents(brain, { ttlDays: 90, now: NOW, dryRun: true })).toEqual({ purged: 0, wouldPurge: 2, purgedBefore: ago(90), ttlDays: 90 });
    expect(await purgeVolunteerEvents(brain, { ttlDays: 89, now: NOW, dryRun: true })).toMatchObject({ wouldPurge: 3 });
    expect(await ids(brain.db)).toHaveLength(4);
    expect(await brain.db.query(`SELECT id FROM events WHERE type = 'volunteer.purged'`)).toEqual([]);
  });

  it.each([1, 3, 1000])('purges in batches of %i rows, one transaction each', async (batchSize) => {
    const brain = await openBrainOn(await open());
    await brain.commit(Array.from({ length: 25 }, (_, i) => volunteered(`old${i}`, 'people/alice', 'alias', 'op', `s${i}`, ago(100 + i))));
    await brain.commit([volunteered('fresh', 'people/alice', 'alias', 'op', 's', ago(1))]);
    const progress: number[] = [];
    const result = await purgeVolunteerEvents(brain, { ttlDays: 90, now: NOW, batchSize, onProgress: (done) => progress.push(done) });
    expect(result.purged).toBe(25);
    expect(await ids(brain.db)).toEqual(['fresh']);
    // One progress report per committed batch of the feedback log (plus the initial 0).
    expect(progress).toHaveLength(1 + Math.ceil(25 / batchSize));
    expect(progress.at(-1)).toBe(25);
  });

  it('an error counts as 0 for the failed batch and never throws', async () => {
    const db = await open();
    const seed = await seeded(async () => db);
    await seed.commit([retrieval('people/alice', 's1', ago(10))]);
    let deletes = 0;
    // The second delete batch fails, as a full disk would make it.
    const failing = (inner: Db): Db => ({
      kind: inner.kind,
      query: async (sql, params) => {
        if (/DELETE FROM context_volunteer_events/.test(sql) && ++deletes === 2) throw new Error('disk full');
        return inner.query(sql, params);
      },
      exec: (sql) => inner.exec(sql),
      transaction: (fn) => inner.transaction((tx) => fn(failing(tx))),
      close: async () => {},
    });
    const brain = new Brain(failing(db), null);
    const result = await purgeQuietly(brain, { ttlDays: 90, now: NOW, batchSize: 1 });
    expect(result.purged).toBe(1);
    expect(await ids(db)).toHaveLength(3);
  });

  it('runs on a schedule: first run soon after start, then again; stop waits for a run in progress', async () => {
    // The schedule runs on the wall clock: seed relative to it.
    const brain = await seeded(open, new Date(), 60_000);
    const results: number[] = [];
    let done!: () => void;
    const twice = new Promise<void>((resolve) => (done = resolve));
    const schedule = startPurgeSchedule(brain, {
      ttlDays: () => 90,
      firstDelayMs: 0,
      intervalMs: 1,
      onResult: (r) => {
        results.push(r.purged);
        if (results.length === 2) done();
      },
    });
    await twice;
    await schedule.stop();
    expect(results).toEqual([2, 0]);
    expect(await ids(brain.db)).toEqual(['d089', 'd090']);
  });
});
