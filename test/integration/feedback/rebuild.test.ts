import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { readCheckpoint } from '../../../src/event-log/consumer.js';
import { rebuildProjection } from '../../../src/event-log/rebuild-projection.js';
import { findProjection, PROJECTIONS } from '../../../projections/registry.js';
import { purgeVolunteerEvents } from '../../../projections/volunteer-purge.js';
import { storageDrivers } from '../../support/databases.js';
import { deletePage, dumpTable, retrieval, upsertPage, volunteered } from '../../support/feedback-log.js';

const drivers = await storageDrivers();

const day = (d: number, h = 10): string => new Date(Date.UTC(2026, 0, d, h)).toISOString();

/** A log that exercises every branch: versions, file paths kept, repeated deletes, late retrievals, two sources. */
async function busyLog(brain: Brain): Promise<void> {
  await brain.commit([upsertPage('people/alice', 'Alice Example', day(1, 8), 'default', 'people/alice.md'), upsertPage('people/bob', 'Bob Sample', day(1, 8))]);
  await brain.commit([upsertPage('people/alice', 'Alice Example II', day(1, 9)), upsertPage('people/carol', 'Carol Work', day(1, 9), 'work')]);
  for (let d = 1; d <= 40; d++) {
    const events = [
      volunteered(`va${d}`, 'people/alice', d % 2 ? 'title' : 'alias', d % 3 ? 'watch' : 'op', `s${d}`, day(d, 10)),
      volunteered(`vb${d}`, 'people/bob', 'title-surname', 'watch', d % 4 ? `s${d}` : null, day(d, 11)),
      volunteered(`vc${d}`, 'people/carol', 'title', 'claude-code', `s${d}`, day(d, 12), 'work'),
      retrieval('people/alice', `s${d}`, day(d, 13)),
      retrieval('people/bob', d % 5 ? `s${d - 1}` : null, day(d, 14)),
    ];
    if (d % 7 === 0) events.push(retrieval('people/carol', `s${d}`, day(d, 11), 'work'));
    await brain.commit(events);
  }
  await brain.commit([deletePage('people/bob', day(20)), deletePage('people/bob', day(21))]);
  await brain.commit([upsertPage('people/bob', 'Bob Sample', day(22))]);
  await brain.commit([deletePage('people/bob', day(30))]);
  // Retrievals that arrive long after the events they mark as used.
  await brain.commit([retrieval('people/carol', 's3', day(41), 'work'), retrieval('people/alice', null, day(41))]);
}

async function snapshot(brain: Brain): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of PROJECTIONS) {
    for (const table of t.tables) out[table.name] = await dumpTable(brain.db, table.name, table.key.join(', '));
  }
  return out;
}

describe.each(drivers)('rebuild on $name', ({ open }) => {
  // A rebuild that finds nothing to change leaves the brain as it was, so the projections share
  // one busy brain; the tests that change it open their own.
  let busy: Promise<Brain> | undefined;
  const sharedBusyBrain = (): Promise<Brain> =>
    (busy ??= (async () => {
      const brain = await openBrainOn(await open());
      await busyLog(brain);
      return brain;
    })());

  it.each(PROJECTIONS.map((t) => t.name))('rebuilding %s from sequence 0 gives byte-identical rows, whatever the batch size', async (name) => {
    const brain = await sharedBusyBrain();
    const before = await snapshot(brain);
    for (const batchSize of [1, 7, 5000]) {
      const report = await rebuildProjection(brain.db, brain.log, findProjection(name)!, { batchSize, check: true });
      expect(report.changed, `batch size ${batchSize}: ${JSON.stringify(report.diffs)}`).toBe(0);
    }
    const target = findProjection(name)!;
    const livePosition = await readCheckpoint(brain.db, target.consumer.name);
    const report = await rebuildProjection(brain.db, brain.log, target);
    expect(report).toMatchObject({ changed: 0, swapped: true, position: livePosition });
    expect(await snapshot(brain)).toEqual(before);
    expect(await brain.db.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'bs_rebuild_%'`)).toEqual([]);
  });

  it('repairs a live table that drifted, and the live projection goes on from the swapped position', async () => {
    const brain = await openBrainOn(await open());
    await busyLog(brain);
    const expected = await dumpTable(brain.db, 'usage_stats', 'day, match_arm, channel, source_id');
    await brain.db.query(`UPDATE usage_stats SET volunteered = volunteered + 5 WHERE day = '2026-01-03'`);
    await brain.db.query(`DELETE FROM context_volunteer_events WHERE id = 'va4'`);
    const usage = await rebuildProjection(brain.db, brain.log, findProjection('usage-stats')!);
    const vol = await rebuildProjection(brain.db, brain.log, findProjection('volunteer-events')!);
    expect(usage.changed).toBeGreaterThan(0);
    expect(vol.diffs).toContainEqual({ table: 'context_volunteer_events', removed: 0, added: 1 });
    expect(await dumpTable(brain.db, 'usage_stats', 'day, match_arm, channel, source_id')).toEqual(expected);
    await brain.commit([volunteered('late', 'people/alice', 'alias', 'watch', 'sx', day(45))]);
    expect(await brain.db.query(`SELECT id FROM context_volunteer_events WHERE id IN ('va4', 'late') ORDER BY id`)).toEqual([{ id: 'late' }, { id: 'va4' }]);
  });

  it('keeps purged events purged: a rebuild after a purge does not resurrect them', async () => {
    const brain = await openBrainOn(await open());
    await busyLog(brain);
    const result = await purgeVolunteerEvents(brain, { ttlDays: 20, now: new Date(day(41, 0)), batchSize: 7 });
    expect(result.purged).toBeGreaterThan(0);
    // An old event delivered after the purge is not projected either.
    await brain.commit([volunteered('stale-late', 'people/alice', 'alias', 'watch', 's1', day(2))]);
    const before = await snapshot(brain);
    expect(before.context_volunteer_events!.some((r) => r.includes('stale-late'))).toBe(false);
    for (const target of PROJECTIONS) {
      const report = await rebuildProjection(brain.db, brain.log, target, { batchSize: 3 });
      expect(report.changed, `${target.name}: ${JSON.stringify(report.diffs)}`).toBe(0);
    }
    expect(await snapshot(brain)).toEqual(before);
  });
});
