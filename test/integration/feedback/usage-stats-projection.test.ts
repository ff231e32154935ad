import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { volunteerStats } from '../../../src/stats/volunteer-stats.js';
import { storageDrivers } from '../../support/databases.js';
import { deletePage, retrieval, upsertPage, volunteered } from '../../support/feedback-log.js';

const drivers = await storageDrivers();
const NOW = new Date('2026-03-10T00:00:00Z');

interface StatRow {
  day: string;
  match_arm: string;
  channel: string;
  source_id: string;
  volunteered: number;
  used_approximate: number;
  used_attributed: number;
}

async function stats(brain: Brain): Promise<StatRow[]> {
  return brain.db.query<StatRow>(
    `SELECT day::text AS day, match_arm, channel, source_id, volunteered, used_approximate, used_attributed
       FROM usage_stats ORDER BY day, match_arm, channel, source_id`,
  );
}

/** A log where every answer is known: see the comments on each event. */
async function handBuiltLog(brain: Brain): Promise<void> {
  await brain.commit([
    upsertPage('people/alice', 'Alice Example', '2026-03-01T09:00:00Z'),
    upsertPage('people/bob', 'Bob Sample', '2026-03-01T09:00:00Z'),
    upsertPage('companies/acme', 'Acme Corp', '2026-03-01T09:00:00Z'),
    upsertPage('people/carol', 'Carol Work', '2026-03-01T09:00:00Z', 'work'),
  ]);
  // v1: read in its own session two minutes later → used under both attributions.
  await brain.commit([volunteered('v1', 'people/alice', 'title', 'watch', 's1', '2026-03-01T10:00:00Z')]);
  // v2: read later, but in another session → approximate only (until bob is deleted).
  await brain.commit([volunteered('v2', 'people/bob', 'alias', 'watch', 's1', '2026-03-01T10:05:00Z')]);
  await brain.commit([retrieval('people/alice', 's1', '2026-03-01T10:02:00Z'), retrieval('people/bob', 's2', '2026-03-01T10:10:00Z')]);
  // v3: no session, and the only read happened before it (appended after it) → never used.
  await brain.commit([volunteered('v3', 'companies/acme', 'title', 'op', null, '2026-03-01T11:00:00Z')]);
  await brain.commit([retrieval('companies/acme', null, '2026-03-01T10:30:00Z')]);
  // v4: read in its session half an hour later; the retrieval arrives in a later batch.
  // v5: other source; read in its session one minute *before* → not used.
  await brain.commit([
    volunteered('v4', 'people/alice', 'alias', 'op', 's2', '2026-03-02T09:00:00Z'),
    volunteered('v5', 'people/carol', 'title', 'watch', 's3', '2026-03-02T10:00:00Z', 'work'),
  ]);
  await brain.commit([retrieval('people/alice', 's2', '2026-03-02T09:30:00Z'), retrieval('people/carol', 's3', '2026-03-02T09:59:00Z', 'work')]);
}

describe.each(drivers)('usage statistics projection on $name', ({ open }) => {
  it('counts volunteered and used pages per day × arm × channel × source, under both attributions', async () => {
    const brain = await openBrainOn(await open());
    await handBuiltLog(brain);
    expect(await stats(brain)).toEqual([
      { day: '2026-03-01', match_arm: 'alias', channel: 'watch', source_id: 'default', volunteered: 1, used_approximate: 1, used_attributed: 0 },
      { day: '2026-03-01', match_arm: 'title', channel: 'op', source_id: 'default', volunteered: 1, used_approximate: 0, used_attributed: 0 },
      { day: '2026-03-01', match_arm: 'title', channel: 'watch', source_id: 'default', volunteered: 1, used_approximate: 1, used_attributed: 1 },
      { day: '2026-03-02', match_arm: 'alias', channel: 'op', source_id: 'default', volunteered: 1, used_approximate: 1, used_attributed: 1 },
      { day: '2026-03-02', match_arm: 'title', channel: 'watch', source_id: 'work', volunteered: 1, used_approximate: 0, used_attributed: 0 },
    ]);
  });

  it('counts a page used when its later retrieval was appended before the volunteered event', async () => {
    const brain = await openBrainOn(await open());
    await brain.commit([upsertPage('people/alice', 'Alice Example', '2026-03-01T09:00:00Z'), upsertPage('people/bob', 'Bob Sample', '2026-03-01T09:00:00Z')]);
    // Read at 10:20 in s1 and at 10:30 in s2, appended before the pushes they follow.
    await brain.commit([retrieval('people/alice', 's1', '2026-03-01T10:20:00Z'), retrieval('people/bob', 's2', '2026-03-01T10:30:00Z')]);
    // v1: pushed at 10:00 in s1 → used under both; v2: in s1, read only in s2 → approximate only.
    await brain.commit([volunteered('v1', 'people/alice', 'title', 'watch', 's1', '2026-03-01T10:00:00Z')]);
    await brain.commit([volunteered('v2', 'people/bob', 'title', 'watch', 's1', '2026-03-01T10:05:00Z')]);
    // v3: after every read → not used, and the facts already stored for alice keep their flags.
    await brain.commit([volunteered('v3', 'people/alice', 'title', 'watch', 's1', '2026-03-01T11:00:00Z')]);
    expect(await stats(brain)).toEqual([
      { day: '2026-03-01', match_arm: 'title', channel: 'watch', source_id: 'default', volunteered: 3, used_approximate: 2, used_attributed: 1 },
    ]);
    const flags = await brain.db.query('SELECT id, used_approximate, used_attributed FROM usage_facts ORDER BY id');
    expect(flags).toEqual([
      { id: 'v1', used_approximate: true, used_attributed: true },
      { id: 'v2', used_approximate: true, used_attributed: false },
      { id: 'v3', used_approximate: false, used_attributed: false },
    ]);
  });

  it('follows page deletion and re-creation for the approximate attribution, as the precision query does', async () => {
    const brain = await openBrainOn(await open());
    await handBuiltLog(brain);
    await brain.commit([deletePage('people/bob', '2026-03-03T00:00:00Z')]);
    const bob = async () => (await stats(brain)).find((r) => r.match_arm === 'alias' && r.channel === 'watch')!;
    expect((await bob()).used_approximate).toBe(0);
    const live = await volunteerStats(brain.db, ['default'], 30, 'approximate', NOW);
    expect(live.by_arm.find((r) => r.match_arm === 'alias' && r.channel === 'watch')!.used).toBe(0);
    await brain.commit([upsertPage('people/bob', 'Bob Sample', '2026-03-04T00:00:00Z')]);
    expect((await bob()).used_approximate).toBe(1);
  });

  it('agrees with `volunteer-context --stats` for both attributions', async () => {
    const brain = await openBrainOn(await open());
    await handBuiltLog(brain);
    await brain.commit([deletePage('people/bob', '2026-03-03T00:00:00Z')]);
    for (const attribution of ['approximate', 'session'] as const) {
      for (const source of ['default', 'work']) {
        const live = await volunteerStats(brain.db, [source], 30, attribution, NOW);
        const rows = (await stats(brain)).filter((r) => r.source_id === source);
        const column = attribution === 'approximate' ? 'used_approximate' : 'used_attributed';
        const byArm = new Map<string, { volunteered: number; used: number }>();
        for (const r of rows) {
          const k = `${r.match_arm}/${r.channel}`;
          const acc = byArm.get(k) ?? { volunteered: 0, used: 0 };
          acc.volunteered += r.volunteered;
          acc.used += r[column];
          byArm.set(k, acc);
        }
        expect(Object.fromEntries(byArm)).toEqual(Object.fromEntries(live.by_arm.map((r) => [`${r.match_arm}/${r.channel}`, { volunteered: r.volunteered, used: r.used }])));
      }
    }
  });

  it('exposes the same figures through the BI views', async () => {
    const brain = await openBrainOn(await open());
    await handBuiltLog(brain);
    await brain.commit([deletePage('people/bob', '2026-03-03T00:00:00Z')]);
    const events = await brain.db.query<{ id: string; used_approximate: boolean; used_attributed: boolean }>(
      'SELECT id, used_approximate, used_attributed FROM volunteer_usage_events ORDER BY id',
    );
    expect(events).toEqual([
      { id: 'v1', used_approximate: true, used_attributed: true },
      { id: 'v2', used_approximate: false, used_attributed: false },
      { id: 'v3', used_approximate: false, used_attributed: false },
      { id: 'v4', used_approximate: true, used_attributed: true },
      { id: 'v5', used_approximate: false, used_attributed: false },
    ]);
    const daily = await brain.db.query<{ volunteered: number; precision_approximate: string; precision_attributed: string }>(
      `SELECT volunteered, precision_approximate::text, precision_attributed::text FROM volunteer_usage_daily
        WHERE day = '2026-03-01' AND match_arm = 'title' AND channel = 'watch'`,
    );
    expect(daily).toEqual([{ volunteered: 1, precision_approximate: '1.000', precision_attributed: '1.000' }]);
    const byArm = await brain.db.query<{ match_arm: string; channel: string; volunteered: number; used_approximate: number; used_attributed: number }>(
      'SELECT match_arm, channel, volunteered, used_approximate, used_attributed FROM volunteer_precision_by_arm ORDER BY match_arm, channel',
    );
    expect(byArm).toEqual([
      { match_arm: 'alias', channel: 'op', volunteered: 1, used_approximate: 1, used_attributed: 1 },
      { match_arm: 'alias', channel: 'watch', volunteered: 1, used_approximate: 0, used_attributed: 0 },
      { match_arm: 'title', channel: 'op', volunteered: 1, used_approximate: 0, used_attributed: 0 },
      { match_arm: 'title', channel: 'watch', volunteered: 2, used_approximate: 1, used_attributed: 1 },
    ]);
  });

  it('is idempotent: a redelivered volunteered event or retrieval changes nothing', async () => {
    const brain = await openBrainOn(await open());
    await handBuiltLog(brain);
    const before = await stats(brain);
    // The embedded log skips known ids; a Kafka redelivery reaches the projection: apply it directly.
    const { usageStatsProjection } = await import('../../../projections/usage-stats-projection.js');
    const again = volunteered('v1', 'people/alice', 'title', 'watch', 's1', '2026-03-01T10:00:00Z');
    await brain.db.transaction((tx) => usageStatsProjection.apply(tx, [{ position: 999, topic: 'volunteered', event: again as never }]));
    expect(await stats(brain)).toEqual(before);
  });
});
