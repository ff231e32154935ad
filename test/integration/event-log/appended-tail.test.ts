import { describe, expect, it } from 'vitest';
import { openBrainOn } from '../../../src/brain/brain.js';
import { makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import { EmbeddedEventLog } from '../../../src/event-log/embedded-log.js';
import { storageDrivers } from '../../support/databases.js';

const drivers = await storageDrivers();

const upsert = (slug: string, at = '2026-03-01T10:00:00Z'): Envelope =>
  makeEvent(
    'page.upserted',
    { source_id: 'default', slug, title: `T ${slug}`, type: 'person', frontmatter: { aliases: ['A'], n: 0.1 + 0.2 }, compiled_truth: 'body', timeline: '', content_hash: `h-${slug}`, file_path: null, origin: 'owner' },
    { key: pageKey('default', slug), at },
  );
const raw = (e: Partial<Envelope> & { id: string }): Envelope =>
  ({ type: 'page.retrieved', v: 1, key: 's', at: '2026-03-05T10:00:00.000Z', data: { source_id: 'default', slug: 'x', session_id: 's' }, ...e }) as unknown as Envelope;

/**
 * The log reads back what it appended from memory: every read must equal the same read of the
 * table by a log that appended nothing (events, dead letters, positions, next position).
 */
describe.each(drivers)('reading back what the log appended, on $name', ({ open }) => {
  it('gives what the table gives, for decodable and undecodable entries, across topics and limits', async () => {
    const db = await open();
    const brain = await openBrainOn(db);
    const log = brain.log;
    const fromTable = new EmbeddedEventLog(db);
    const retrieval = makeEvent('page.retrieved', { source_id: 'default', slug: 'people/p1', session_id: 's' }, { key: 's' });
    await log.append([upsert('people/p0'), retrieval, upsert('people/p1', '2026-03-01T12:00:00+02:00')]);
    await log.append([
      raw({ id: 'unknown-version', type: 'page.upserted', v: 9 }),
      raw({ id: 'bad-shape', data: { slug: 3 } as never }),
      // Kept as undecodable: its raw text shows the data as the table returns it (jsonb's key order, its numbers).
      raw({ id: 'nested', type: 'page.upserted', v: 9, data: { zé: 1, ab: { zz: 1, a: [{ bb: 1, a: 2 }] }, é: 2, b: 1e21, c: 5e-324, d: 0.1 + 0.2 } as never }),
      raw({ id: 'offset-time', at: '2026-03-05T12:00:00+02:00' }),
      upsert('people/p2'),
      upsert('people/p2'),
    ]);
    // Appended by another writer: read from the table, in order with the rest.
    await fromTable.append([upsert('people/p3')]);
    for (const options of [{}, { topics: ['pages' as const] }, { topics: ['retrievals' as const], limit: 2 }, { limit: 3 }]) {
      for (const from of [1, 2, 4, 9, 20]) {
        expect(await log.read(from, options)).toEqual(await fromTable.read(from, options));
      }
    }
  });

  it('an append whose transaction rolled back is never read', async () => {
    const db = await open();
    const brain = await openBrainOn(db);
    const log = brain.log;
    await expect(
      db.transaction(async (tx) => {
        await log.append([upsert('people/rolled-back')], tx);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await log.append([upsert('people/kept')]);
    const batch = await log.read(1, { topics: ['pages'] });
    expect(batch.events.map((e) => e.event.data)).toMatchObject([{ slug: 'people/kept' }]);
    expect(batch).toEqual(await new EmbeddedEventLog(db).read(1, { topics: ['pages'] }));
  });

  it('a retried append keeps the entries at their first positions', async () => {
    const db = await open();
    const brain = await openBrainOn(db);
    const events = [upsert('people/a'), upsert('people/b')];
    await brain.log.append(events);
    await brain.log.append([upsert('people/c'), ...events]);
    const batch = await brain.log.read(1);
    expect(batch.events.map((e) => [e.position, (e.event.data as { slug: string }).slug])).toEqual([
      [1, 'people/a'],
      [2, 'people/b'],
      [3, 'people/c'],
    ]);
    expect(batch).toEqual(await new EmbeddedEventLog(db).read(1));
  });
});
