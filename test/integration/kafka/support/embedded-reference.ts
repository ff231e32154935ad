import { openBrainOn } from '../../../../src/brain/brain.js';
import type { WatchSessionState } from '../../../../src/context/watch-session.js';
import type { Db } from '../../../../src/db/db.js';
import { openMemoryDb } from '../../../support/databases.js';
import { makeEvent } from '../../../../src/domain/events.js';
import { catchUp } from '../../../../src/event-log/consumer.js';
import { importFolder } from '../../../../src/ops/import-folder.js';
import { PageIndexFollower } from '../../../../streams/page-index-follower.js';
import { createVolunteerProcessor } from '../../../../streams/volunteer-processor.js';
import type { TopologySettings } from '../../../../streams/decide-turns.js';
import type { TurnLine } from './conversation-stream.js';

/** A `context_volunteer_events` row, comparable across drivers. */
export type FeedbackRow = Record<string, unknown>;

export interface PipelineResult {
  rows: FeedbackRow[];
  sessions: Record<string, WatchSessionState>;
}

/** Every feedback row ordered by id, with the event time as ISO text. */
export async function feedbackRows(db: Db): Promise<FeedbackRow[]> {
  const rows = await db.query<FeedbackRow & { volunteered_at: Date | string }>(
    `SELECT id, source_id, slug, confidence, match_arm, rationale, channel, session_id, turn, volunteered_at
       FROM context_volunteer_events ORDER BY id`,
  );
  return rows.map((r) => ({ ...r, volunteered_at: new Date(r.volunteered_at).toISOString() }));
}

/** Session states of one processor (or every processor, when it is the only one), by session. */
export async function sessionStates(db: Db, processor?: string): Promise<Record<string, WatchSessionState>> {
  const rows = await db.query<{ session_id: string; state: WatchSessionState }>(
    'SELECT session_id, state FROM session_state WHERE $1::text IS NULL OR processor = $1 ORDER BY session_id',
    [processor ?? null],
  );
  return Object.fromEntries(rows.map((r) => [r.session_id, r.state]));
}

/**
 * The uninterrupted run the distributed mode must equal: the embedded mode — same processor,
 * same projections — over the same pages and turns, in one process, on PGlite.
 */
export async function embeddedReference(brainDir: string, lines: readonly TurnLine[], settings: TopologySettings): Promise<PipelineResult> {
  const brain = await openBrainOn(await openMemoryDb());
  try {
    await importFolder(brain, brainDir, 'default');
    const turns = lines.map((l) =>
      makeEvent('turn.appended', { session_id: l.session_id, turn: l.turn, role: l.role, text: l.text, source_id: 'default' }, { key: l.session_id, at: l.at }),
    );
    await brain.log.append(turns);
    const pages = await PageIndexFollower.load(brain.db, brain.log);
    const processor = createVolunteerProcessor({ log: brain.log, pages, settings: () => settings, channel: 'watch', name: 'reference' });
    await catchUp(brain.db, brain.log, processor, { batchSize: 1000 });
    await brain.catchUp();
    return { rows: await feedbackRows(brain.db), sessions: await sessionStates(brain.db) };
  } finally {
    await brain.close();
  }
}
