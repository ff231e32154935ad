import { describe, expect, it } from 'vitest';
import { openBrainOn } from '../../../src/brain/brain.js';
import type { Db } from '../../../src/db/db.js';
import { makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import { catchUp, readCheckpoint, type Consumer } from '../../../src/event-log/consumer.js';
import { EmbeddedEventLog } from '../../../src/event-log/embedded-log.js';
import type { LoggedEvent } from '../../../src/event-log/event-log.js';
import { storageDrivers } from '../../support/databases.js';

const drivers = await storageDrivers();

const upsert = (slug: string, title: string, at = '2026-03-01T10:00:00Z'): Envelope =>
  makeEvent(
    'page.upserted',
    { source_id: 'default', slug, title, type: 'person', frontmatter: { aliases: [title.split(' ')[0]!] }, compiled_truth: `${title} body`, timeline: '', content_hash: `h-${slug}-${title}`, file_path: null, origin: 'owner' },
    { key: pageKey('default', slug), at },
  );

describe.each(drivers)('event log and projections on $name', ({ open }) => {
  async function fresh(): Promise<{ db: Db; log: EmbeddedEventLog }> {
    const db = await open();
    const brain = await openBrainOn(db);
    return { db, log: brain.log };
  }

  it('appends in batches with a global sequence and reads back by topic, idempotent on id', async () => {
    const { log } = await fresh();
    const events = Array.from({ length: 2500 }, (_, i) => upsert(`people/p${i}`, `Person ${i}`));
    const retrieval = makeEvent('page.retrieved', { source_id: 'default', slug: 'people/p1', session_id: 's' }, { key: 's' });
    await log.append([...events, retrieval]);
    await log.append(events.slice(0, 10)); // a retried batch adds nothing
    expect(await log.end()).toBe(2502);
    const pagesOnly = await log.read(1, { topics: ['pages'], limit: 3000 });
    expect(pagesOnly.events).toHaveLength(2500);
    expect(pagesOnly.events[0]!.position).toBe(1);
    expect(pagesOnly.events[0]!.event).toEqual(events[0]);
    const rest = await log.read(2500, { topics: ['retrievals'] });
    expect(rest.events.map((e) => e.event.id)).toEqual([retrieval.id]);
  });

  it('stores the checkpoint in the same transaction as the projection rows', async () => {
    const { db, log } = await fresh();
    await db.exec('CREATE TABLE seen (id TEXT PRIMARY KEY)');
    let failNext = true;
    const flaky: Consumer = {
      name: 'test.flaky',
      topics: ['pages'],
      async apply(tx: Db, events: readonly LoggedEvent[]) {
        for (const e of events) await tx.query('INSERT INTO seen(id) VALUES ($1)', [e.event.id]);
        if (failNext) {
          failNext = false;
          throw new Error('crash after writing rows');
        }
      },
    };
    await log.append([upsert('a', 'A'), upsert('b', 'B')]);
    await expect(catchUp(db, log, flaky)).rejects.toThrow('crash after writing rows');
    expect(await db.query('SELECT id FROM seen')).toEqual([]);
    expect(await readCheckpoint(db, 'test.flaky')).toBe(1);
    await catchUp(db, log, flaky);
    expect((await db.query('SELECT id FROM seen')).length).toBe(2);
    expect(await readCheckpoint(db, 'test.flaky')).toBe(3);
  });

  it('projects pages (versions, soft delete) and retrievals, and dead-letters unknown versions', async () => {
    const db = await open();
    const brain = await openBrainOn(db);
    await brain.commit([upsert('people/alice', 'Alice Example'), upsert('people/bob', 'Bob Sample')]);
    await brain.commit([upsert('people/alice', 'Alice Example II', '2026-03-02T10:00:00Z')]);
    await brain.commit([makeEvent('page.retrieved', { source_id: 'default', slug: 'people/alice', session_id: 's1' }, { key: 's1', at: '2026-03-03T10:00:00Z' })]);
    await brain.commit([makeEvent('page.deleted', { source_id: 'default', slug: 'people/bob', origin: 'owner' }, { key: 'default/people/bob', at: '2026-03-04T10:00:00Z' })]);
    await brain.log.append([{ id: 'from-the-future', type: 'page.upserted', v: 9, key: 'k', at: '2026-03-05T10:00:00.000Z', data: { x: 1 } } as unknown as Envelope]);
    await brain.catchUp();
    const pages = await db.query<{ slug: string; title: string; version: number; deleted: boolean; last_retrieved_at: Date | null }>(
      'SELECT slug, title, version, deleted, last_retrieved_at FROM pages ORDER BY slug',
    );
    expect(pages.map((p) => [p.slug, p.title, p.version, p.deleted])).toEqual([
      ['people/alice', 'Alice Example II', 2, false],
      ['people/bob', 'Bob Sample', 1, true],
    ]);
    expect(new Date(pages[0]!.last_retrieved_at!).toISOString()).toBe('2026-03-03T10:00:00.000Z');
    const retrievals = await db.query('SELECT slug, session_id FROM page_retrievals');
    expect(retrievals).toEqual([{ slug: 'people/alice', session_id: 's1' }]);
    const dead = await db.query<{ origin: string; seq: number; reason: string }>('SELECT origin, seq, reason FROM dead_letters');
    expect(dead).toEqual([{ origin: 'pages', seq: 6, reason: 'unknown version 9 of event type "page.upserted"' }]);
  });

  it('projects volunteered events once per deterministic id', async () => {
    const db = await open();
    const brain = await openBrainOn(db);
    const vol = makeEvent(
      'page.volunteered',
      { source_id: 'default', slug: 'people/alice', confidence: 0.9500000000000001, match_arm: 'alias', rationale: 'alias match "Alice"', channel: 'watch', session_id: 's1', turn: 2 },
      { key: 's1', id: 'vol-fixed', at: '2026-03-03T10:00:00Z' },
    );
    await brain.commit([vol]);
    await brain.commit([vol]);
    const rows = await db.query('SELECT id, confidence, match_arm, channel, session_id, turn FROM context_volunteer_events');
    expect(rows).toEqual([{ id: 'vol-fixed', confidence: 0.9500000000000001, match_arm: 'alias', channel: 'watch', session_id: 's1', turn: 2 }]);
  });
});
