import { describe, expect, it } from 'vitest';
import { openBrainOn } from '../../../src/brain/brain.js';
import type { Db } from '../../../src/db/db.js';
import { makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import { catchUp } from '../../../src/event-log/consumer.js';
import { coreNoticesProjection } from '../../../projections/core-notices-projection.js';
import { coreRevisionsProjection } from '../../../projections/core-revisions-projection.js';
import { factsProjection } from '../../../projections/facts-projection.js';
import { rememberRequestsProjection } from '../../../projections/remember-requests-projection.js';
import { storageDrivers } from '../../support/databases.js';

const drivers = await storageDrivers();

const page = (slug: string, body: string, frontmatter: Record<string, unknown>, origin: 'owner' | 'remote' | 'import' = 'owner', at = '2026-04-01T10:00:00Z'): Envelope =>
  makeEvent(
    'page.upserted',
    { source_id: 'default', slug, title: slug, type: 'concept', frontmatter, compiled_truth: body, timeline: '', content_hash: body, file_path: null, origin },
    { key: pageKey('default', slug), at },
  );
const core = { always_load: true };

const TABLES = {
  core_revisions: 'SELECT source_id, slug, version, compiled_truth, origin FROM core_revisions ORDER BY source_id, slug, version',
  core_page_heads: 'SELECT source_id, slug, version, core FROM core_page_heads ORDER BY source_id, slug',
  core_remote_revisions: 'SELECT source_id, slug, version FROM core_remote_revisions ORDER BY source_id, slug, version',
  core_revision_acks: 'SELECT source_id, slug, acked_through FROM core_revision_acks ORDER BY source_id, slug',
  facts: 'SELECT id, source_id, entity, page_row, fact, normalized, status, reason, superseded_by, valid_until FROM facts ORDER BY id',
  remember_requests: 'SELECT source_id, identity, request_id, fingerprint, response FROM remember_requests ORDER BY request_id',
};
const snapshot = async (db: Db) => Object.fromEntries(await Promise.all(Object.entries(TABLES).map(async ([t, q]) => [t, await db.query(q)])));

const HISTORY: Envelope[] = [
  page('prefs', 'v1', core), // r1
  page('plain', 'p1', {}), // not core: no revision kept
  page('prefs', 'v2 remote', core, 'remote'), // r2
  makeEvent('core.remote_edit_noticed', { source_id: 'default', slug: 'prefs', version: 2 }, { key: pageKey('default', 'prefs') }),
  page('prefs', 'v3 remote', core, 'remote'), // r3
  makeEvent('core.remote_edit_noticed', { source_id: 'default', slug: 'prefs', version: 3 }, { key: pageKey('default', 'prefs') }),
  makeEvent('core.revision_acked', { source_id: 'default', slug: 'prefs', version: 2 }, { key: pageKey('default', 'prefs') }),
  page('prefs', 'v4 uncored', {}), // r4: the version that stopped being core is kept
  page('prefs', 'v5', {}), // r5: not kept
  makeEvent('page.deleted', { source_id: 'default', slug: 'prefs', origin: 'owner' }, { key: pageKey('default', 'prefs') }),
  makeEvent('fact.recorded', { fact_id: 1, source_id: 'default', entity: null, page_row: null, fact: 'Likes Tea', kind: 'fact', visibility: 'world', provenance: 'p', valid_from: '2026-04-01', valid_until: null, supersedes: null }, { key: 'fact/1' }),
  makeEvent('fact.recorded', { fact_id: 2, source_id: 'default', entity: 'plain', page_row: 1, fact: 'Likes coffee', kind: 'fact', visibility: 'world', provenance: 'p', valid_from: '2026-04-01', valid_until: null, supersedes: 1 }, { key: 'fact/2' }),
  makeEvent('fact.forgotten', { fact_id: 2, source_id: 'default', reason: 'user request', valid_until: '2026-04-02' }, { key: 'fact/2' }),
  makeEvent('remember.request_completed', { source_id: 'default', identity: 'owner', request_id: 'old', fingerprint: 'f0', response: '{"a":1}' }, { key: 'r', at: '2026-03-01T00:00:00Z' }),
  makeEvent('remember.request_completed', { source_id: 'default', identity: 'owner', request_id: 'new', fingerprint: 'f1', response: '{"z":1,"a":2}' }, { key: 'r', at: '2026-04-01T00:00:00Z' }),
];

describe.each(drivers)('core-memory projections on $name', ({ open }) => {
  it('fold the history into revisions, notices, facts and replays (replays expire after 7 days of event time)', async () => {
    const brain = await openBrainOn(await open());
    await brain.commit(HISTORY);
    const s = await snapshot(brain.db);
    expect(s.core_revisions).toEqual([
      { source_id: 'default', slug: 'prefs', version: 1, compiled_truth: 'v1', origin: 'owner' },
      { source_id: 'default', slug: 'prefs', version: 2, compiled_truth: 'v2 remote', origin: 'remote' },
      { source_id: 'default', slug: 'prefs', version: 3, compiled_truth: 'v3 remote', origin: 'remote' },
      { source_id: 'default', slug: 'prefs', version: 4, compiled_truth: 'v4 uncored', origin: 'owner' },
    ]);
    expect(s.core_page_heads).toEqual([
      { source_id: 'default', slug: 'plain', version: 1, core: false },
      { source_id: 'default', slug: 'prefs', version: 5, core: false },
    ]);
    expect(s.core_remote_revisions).toEqual([
      { source_id: 'default', slug: 'prefs', version: 2 },
      { source_id: 'default', slug: 'prefs', version: 3 },
    ]);
    expect(s.core_revision_acks).toEqual([{ source_id: 'default', slug: 'prefs', acked_through: 2 }]);
    expect(s.facts).toEqual([
      { id: 1, source_id: 'default', entity: null, page_row: null, fact: 'Likes Tea', normalized: 'likes tea', status: 'superseded', reason: null, superseded_by: 2, valid_until: null },
      { id: 2, source_id: 'default', entity: 'plain', page_row: 1, fact: 'Likes coffee', normalized: 'likes coffee', status: 'forgotten', reason: 'user request', superseded_by: null, valid_until: '2026-04-02' },
    ]);
    expect(s.remember_requests).toEqual([{ source_id: 'default', identity: 'owner', request_id: 'new', fingerprint: 'f1', response: '{"z":1,"a":2}' }]);
  });

  it('are idempotent: a batch applied twice, or the log rebuilt from sequence 0 in any batch size, gives the same rows', async () => {
    const brain = await openBrainOn(await open());
    await brain.commit(HISTORY);
    const once = await snapshot(brain.db);
    const consumers = [coreRevisionsProjection, coreNoticesProjection, factsProjection, rememberRequestsProjection];
    const all = await brain.log.read(1, { limit: 1000 });
    for (const c of consumers) {
      await brain.db.transaction(async (tx) => c.apply(tx, all.events.filter((e) => c.topics.includes(e.topic))));
    }
    expect(await snapshot(brain.db)).toEqual(once);
    await brain.db.exec('TRUNCATE core_revisions, core_page_heads, core_remote_revisions, core_revision_acks, facts, remember_requests');
    await brain.db.query(`DELETE FROM checkpoints WHERE consumer = ANY($1::text[])`, [consumers.map((c) => c.name)]);
    for (const c of consumers) await catchUp(brain.db, brain.log, c, { batchSize: 3 });
    expect(await snapshot(brain.db)).toEqual(once);
  });
});
