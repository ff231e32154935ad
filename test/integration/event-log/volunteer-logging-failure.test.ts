// Logging volunteered events is best-effort and never fails or delays the delivering call. Here the
// feedback table refuses every row (a trigger raising on insert): both channels still deliver,
// the rest of the brain keeps working, and the volunteered events are projected once it heals.
import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { ownerCaller } from '../../../src/caller.js';
import type { Db } from '../../../src/db/db.js';
import { openMemoryDb } from '../../support/databases.js';
import { listPages, putPage } from '../../../src/ops/page-ops.js';
import { volunteerOnce } from '../../../src/ops/volunteer-once.js';
import { runWatch } from '../../../src/ops/watch-stream.js';
import type { TurnDecision } from '../../../streams/decide-turns.js';
import { upsertPage } from '../../support/feedback-log.js';

const PROJECTION = 'projection.context_volunteer_events';
const topology = () => ({ windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false });

async function brainWithBrokenFeedbackTable(): Promise<Brain> {
  const brain = await openBrainOn(await openMemoryDb());
  const at = '2026-03-01T10:00:00.000Z';
  await brain.commit([upsertPage('people/alice-example', 'Alice Example', at), upsertPage('people/bob-sample', 'Bob Sample', at)]);
  await brain.db.exec(`
    CREATE FUNCTION refuse_feedback() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'feedback store down'; END $$ LANGUAGE plpgsql;
    CREATE TRIGGER refuse_feedback BEFORE INSERT ON context_volunteer_events FOR EACH ROW EXECUTE FUNCTION refuse_feedback();`);
  return brain;
}

const healFeedbackTable = (db: Db) => db.exec('DROP TRIGGER refuse_feedback ON context_volunteer_events');
const feedbackRows = (db: Db) =>
  db.query<{ slug: string; channel: string; session_id: string | null; turn: number | null }>(
    'SELECT slug, channel, session_id, turn FROM context_volunteer_events ORDER BY channel, slug',
  );

describe('a failing feedback projection never fails delivery', () => {
  it('volunteer-context: the call succeeds; later catch-ups and writes go on; the rows arrive once it heals', async () => {
    const brain = await brainWithBrokenFeedbackTable();
    const result = await volunteerOnce(brain, await brain.pageIndex(), ownerCaller(), {
      window: 'user: lunch with Alice Example',
      sessionId: 'once-1',
      turn: 3,
      lexicalArms: true,
      gazetteer: true,
    });
    expect(result.pages.map((p) => p.slug)).toEqual(['people/alice-example']);

    // What openBrain does at every command start: no throw, the failing projection reported behind.
    await expect(brain.catchUp()).resolves.toBeUndefined();
    expect([...brain.projectionsBehind().keys()]).toEqual([PROJECTION]);
    expect(brain.projectionsBehind().get(PROJECTION)).toContain('feedback store down');

    // Commands that do not read the feedback table still work, guarded writes included.
    await expect(putPage(brain, ownerCaller(), 'people/carol-demo', '---\ntitle: Carol Demo\n---\nCarol Demo designs.\n')).resolves.toMatchObject({ status: 'created' });
    expect((await listPages(brain, ownerCaller(), null)).map((p) => p.slug)).toContain('people/carol-demo');

    await healFeedbackTable(brain.db);
    await brain.catchUp();
    expect(brain.projectionsBehind().size).toBe(0);
    expect(await feedbackRows(brain.db)).toEqual([{ slug: 'people/alice-example', channel: 'op', session_id: 'once-1', turn: 3 }]);
    await brain.close();
  });

  it('watch: every decision is delivered; the volunteered events wait in the log and are projected once it heals', async () => {
    const brain = await brainWithBrokenFeedbackTable();
    const delivered: TurnDecision[] = [];
    const last = await runWatch(brain, from(['hello', 'ping Alice Example', 'and Bob Sample']), {
      sessionId: 'w-broken',
      sourceId: 'default',
      settings: {},
      topology,
      onDecision: (d) => delivered.push(d),
    });
    expect(last).toBe(3);
    expect(delivered.filter((d) => d.volunteered.length > 0).map((d) => [d.turn, d.volunteered.map((p) => p.slug)])).toEqual([
      [2, ['people/alice-example']],
      [3, ['people/bob-sample']],
    ]);
    expect(await feedbackRows(brain.db)).toEqual([]);
    expect([...brain.projectionsBehind().keys()]).toEqual([PROJECTION]);

    await healFeedbackTable(brain.db);
    await brain.catchUp();
    expect(await feedbackRows(brain.db)).toEqual([
      { slug: 'people/alice-example', channel: 'watch', session_id: 'w-broken', turn: 2 },
      { slug: 'people/bob-sample', channel: 'watch', session_id: 'w-broken', turn: 3 },
    ]);
    await brain.close();
  });

  it('watch: a turn whose append fails is skipped alone; the turns batched with it are still decided', async () => {
    const brain = await brainWithBrokenFeedbackTable();
    await healFeedbackTable(brain.db);
    // The log refuses one turn (as it would any row it cannot store): its whole batch insert fails.
    await brain.db.exec(`
      CREATE FUNCTION refuse_poison() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'turn refused'; END $$ LANGUAGE plpgsql;
      CREATE TRIGGER refuse_poison BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.data->>'text' LIKE '%poison%') EXECUTE FUNCTION refuse_poison();`);
    const delivered: TurnDecision[] = [];
    await runWatch(brain, from(['ping Alice Example', 'poison pill here', 'and Bob Sample']), {
      sessionId: 'w-poison',
      sourceId: 'default',
      settings: {},
      topology,
      onDecision: (d) => delivered.push(d),
    });
    expect(delivered.map((d) => [d.turn, d.volunteered.map((p) => p.slug)])).toEqual([
      [1, ['people/alice-example']],
      [3, ['people/bob-sample']],
    ]);
    await brain.close();
  });
});
