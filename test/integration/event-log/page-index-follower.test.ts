import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { volunteer } from '../../../src/context/volunteer.js';
import type { Db } from '../../../src/db/db.js';
import { makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import type { LoggedEvent } from '../../../src/event-log/event-log.js';
import { PageIndexFollower } from '../../../streams/page-index-follower.js';
import { storageDrivers } from '../../support/databases.js';

// Issue 3, deliverable 2: the page index is an in-memory state store built from the page event
// stream and kept current on every edit and delete; deciding a turn never asks the database.

const drivers = await storageDrivers();

interface PageFields {
  title: string;
  aliases?: string[];
  visibility?: string;
}

const upsert = (slug: string, fields: PageFields): Envelope => {
  const frontmatter: Record<string, unknown> = {};
  if (fields.aliases) frontmatter.aliases = fields.aliases;
  if (fields.visibility) frontmatter.visibility = fields.visibility;
  return makeEvent(
    'page.upserted',
    {
      source_id: 'default',
      slug,
      title: fields.title,
      type: 'person',
      frontmatter,
      compiled_truth: `${fields.title} is a founder.`,
      timeline: '',
      content_hash: `h-${slug}-${JSON.stringify(fields)}`,
      file_path: null,
      origin: 'owner',
    },
    { key: pageKey('default', slug) },
  );
};

const deleted = (slug: string): Envelope => makeEvent('page.deleted', { source_id: 'default', slug, origin: 'owner' }, { key: pageKey('default', slug) });

/** What one turn volunteers from the follower's index: `slug:arm` per page. */
const decide = (follower: PageIndexFollower, text: string, remote = false): string[] =>
  volunteer([{ role: 'user', text }], follower.index, { scope: ['default'], remote }).map((p) => `${p.slug}:${p.arm}`);

/** A Db that records every statement run through it (and through its transactions). */
function counting(db: Db, statements: string[]): Db {
  return {
    kind: db.kind,
    query: (sql, params) => {
      statements.push(sql);
      return db.query(sql, params);
    },
    exec: (sql) => {
      statements.push(sql);
      return db.exec(sql);
    },
    transaction: (fn) => db.transaction((tx) => fn(counting(tx, statements))),
    close: () => db.close(),
  };
}

describe.each(drivers)('page index follower on $name', ({ open }) => {
  async function freshBrain(): Promise<Brain> {
    return openBrainOn(await open());
  }

  it('loads the pages projection plus the page events the projection has not applied yet', async () => {
    const brain = await freshBrain();
    await brain.commit([upsert('people/alice', { title: 'Alice Example' })]);
    await brain.log.append([upsert('people/bob', { title: 'Bob Sample' })]);
    const follower = await PageIndexFollower.load(brain.db, brain.log);
    expect(decide(follower, 'met Alice Example and Bob Sample')).toEqual(['people/alice:title', 'people/bob:title']);
  });

  it('follows title, alias and visibility edits and deletes: each refresh changes the decision', async () => {
    const brain = await freshBrain();
    await brain.commit([upsert('people/alice', { title: 'Alice Example', aliases: ['Ally'] })]);
    const follower = await PageIndexFollower.load(brain.db, brain.log);
    expect(decide(follower, 'met Alice Example')).toEqual(['people/alice:title']);
    expect(decide(follower, 'met Ally')).toEqual(['people/alice:alias']);

    // Title change: the old title no longer resolves, the new one does. Events enter the index at
    // refresh (between batches of turns), never while a turn is being decided.
    await brain.commit([upsert('people/alice', { title: 'Alicia Example', aliases: ['Ally'] })]);
    expect(decide(follower, 'met Alicia Example')).toEqual([]);
    await follower.refresh(brain.db);
    expect(decide(follower, 'met Alice Example')).toEqual([]);
    expect(decide(follower, 'met Alicia Example')).toEqual(['people/alice:title']);

    // Alias added.
    await brain.commit([upsert('people/alice', { title: 'Alicia Example', aliases: ['Ally', 'Lissy'] })]);
    await follower.refresh(brain.db);
    expect(decide(follower, 'met Lissy')).toEqual(['people/alice:alias']);

    // Alias removed: the old key is gone, the remaining one still resolves.
    await brain.commit([upsert('people/alice', { title: 'Alicia Example', aliases: ['Lissy'] })]);
    await follower.refresh(brain.db);
    expect(decide(follower, 'met Ally')).toEqual([]);
    expect(decide(follower, 'met Lissy')).toEqual(['people/alice:alias']);

    // Made private: gone for remote callers, still there for the owner.
    await brain.commit([upsert('people/alice', { title: 'Alicia Example', aliases: ['Lissy'], visibility: 'private' })]);
    await follower.refresh(brain.db);
    expect(decide(follower, 'met Alicia Example', true)).toEqual([]);
    expect(decide(follower, 'met Lissy', true)).toEqual([]);
    expect(decide(follower, 'met Alicia Example')).toEqual(['people/alice:title']);

    // Deleted: gone for everyone.
    await brain.commit([deleted('people/alice')]);
    await follower.refresh(brain.db);
    expect(decide(follower, 'met Alicia Example')).toEqual([]);
    expect(decide(follower, 'met Lissy')).toEqual([]);
    expect(follower.index.size).toBe(0);
  });

  it('applyEvents updates the index in memory from page events and ignores other topics', async () => {
    const brain = await freshBrain();
    const follower = await PageIndexFollower.load(brain.db, brain.log);
    const turn = makeEvent('turn.appended', { session_id: 's1', source_id: 'default', turn: 1, role: 'user', text: 'Bob Sample' }, { key: 's1' });
    const logged = (position: number, event: Envelope): LoggedEvent => ({ position, topic: position === 2 ? 'turns' : 'pages', event } as LoggedEvent);
    follower.applyEvents([logged(1, upsert('people/bob', { title: 'Bob Sample', aliases: ['Bobby'] })), logged(2, turn)]);
    expect(decide(follower, 'met Bobby')).toEqual(['people/bob:alias']);
    follower.applyEvents([logged(3, upsert('people/bob', { title: 'Robert Sample' }))]);
    expect(decide(follower, 'met Bobby')).toEqual([]);
    expect(decide(follower, 'met Robert Sample')).toEqual(['people/bob:title']);
    follower.applyEvents([logged(4, deleted('people/bob'))]);
    expect(decide(follower, 'met Robert Sample')).toEqual([]);
  });

  it('deciding turns makes no database call; a refresh without new page events never reads the pages table', async () => {
    const brain = await freshBrain();
    await brain.commit([upsert('people/alice', { title: 'Alice Example', aliases: ['Ally'] })]);
    const statements: string[] = [];
    const db = counting(brain.db, statements);
    const follower = await PageIndexFollower.load(db, brain.log);
    expect(statements.some((sql) => /\bFROM pages\b/.test(sql))).toBe(true);

    statements.length = 0;
    for (let turn = 0; turn < 100; turn++) expect(decide(follower, turn % 2 === 0 ? 'met Alice Example' : 'ask Ally')).toHaveLength(1);
    expect(statements).toEqual([]);

    // Page-unrelated traffic (turns) does not make the follower reload or change the index.
    await brain.log.append([makeEvent('turn.appended', { session_id: 's1', source_id: 'default', turn: 1, role: 'user', text: 'hello' }, { key: 's1' })]);
    const version = follower.index.version;
    await follower.refresh(db);
    expect(follower.index.version).toBe(version);
    expect(statements.length).toBeLessThanOrEqual(1);
    expect(statements.every((sql) => /\bFROM events\b/.test(sql) && !/\bFROM pages\b/.test(sql))).toBe(true);
  });

  it('following the owner brain’s commits, a refresh reads nothing until a page event is committed', async () => {
    const brain = await freshBrain();
    await brain.commit([upsert('people/alice', { title: 'Alice Example' })]);
    const statements: string[] = [];
    const db = counting(brain.db, statements);
    const follower = await PageIndexFollower.load(db, brain.log);
    const unfollow = follower.followCommits(brain);
    try {
      statements.length = 0;
      await brain.log.append([makeEvent('turn.appended', { session_id: 's1', source_id: 'default', turn: 1, role: 'user', text: 'hello' }, { key: 's1' })]);
      for (let turn = 0; turn < 10; turn++) await follower.refresh(db);
      expect(statements).toEqual([]);
      expect(follower.stale).toBe(false);

      await brain.commit([upsert('people/bob', { title: 'Bob Sample' })]);
      expect(follower.stale).toBe(true);
      await follower.refresh(db);
      expect(decide(follower, 'met Bob Sample')).toEqual(['people/bob:title']);
      expect(statements.length).toBeGreaterThan(0);

      statements.length = 0;
      await follower.refresh(db);
      expect(statements).toEqual([]);
    } finally {
      unfollow();
    }
  });

  it('skips a page event it cannot decode, as the pages projection does, and keeps following', async () => {
    const brain = await freshBrain();
    const follower = await PageIndexFollower.load(brain.db, brain.log);
    const future = { id: 'page-from-the-future', type: 'page.upserted', v: 99, key: 'default/people/zed', at: '2026-03-05T10:00:00.000Z', data: { title: 'Zed Zulu' } };
    await brain.log.append([future as unknown as Envelope, upsert('people/cleo', { title: 'Cleo Marsh' })]);
    await follower.refresh(brain.db);
    expect(decide(follower, 'met Zed Zulu and Cleo Marsh')).toEqual(['people/cleo:title']);
    await brain.catchUp();
    const rows = await brain.db.query<{ slug: string }>('SELECT slug FROM pages WHERE NOT deleted ORDER BY slug');
    expect(rows.map((r) => r.slug)).toEqual(['people/cleo']);
  });
});
