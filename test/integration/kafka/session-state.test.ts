// Per-session state moves with its partition: a processor that takes over a partition in the
// middle of conversations resumes from `session_state` and decides exactly as one processor that
// ran the whole stream. On both storage drivers (the state must be stored as JSON objects).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { makeEvent } from '../../../src/domain/events.js';
import { catchUp } from '../../../src/event-log/consumer.js';
import { importFolder } from '../../../src/ops/import-folder.js';
import { PageIndexFollower } from '../../../streams/page-index-follower.js';
import { createVolunteerProcessor } from '../../../streams/volunteer-processor.js';
import type { TopologySettings } from '../../../streams/decide-turns.js';
import { storageDrivers } from '../../support/databases.js';
import { conversationStream, streamPages, writeBrain, type TurnLine } from './support/conversation-stream.js';
import { feedbackRows, sessionStates } from './support/embedded-reference.js';

const drivers = await storageDrivers();
const settings: TopologySettings = { windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: true };

const turnEvent = (l: TurnLine) =>
  makeEvent('turn.appended', { session_id: l.session_id, turn: l.turn, role: l.role, text: l.text, source_id: 'default' }, { key: l.session_id, at: l.at });

describe.each(drivers)('session state moves with the partition ($name)', ({ open }) => {
  let dir: string;
  let lines: TurnLine[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bs-session-state-'));
    writeBrain(dir, streamPages(60));
    lines = conversationStream(streamPages(60), 6, 40);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function brainWithTurns(): Promise<Brain> {
    const brain = await openBrainOn(await open());
    await importFolder(brain, dir, 'default');
    await brain.log.append(lines.map(turnEvent));
    return brain;
  }

  const processor = async (brain: Brain) =>
    createVolunteerProcessor({ log: brain.log, pages: await PageIndexFollower.load(brain.db, brain.log), settings: () => settings, name: 'p' });

  it('a second processor taking over mid-conversation decides as one uninterrupted processor', async () => {
    const whole = await brainWithTurns();
    await catchUp(whole.db, whole.log, await processor(whole), { batchSize: 37 });
    await whole.catchUp();
    const expected = { rows: await feedbackRows(whole.db), sessions: await sessionStates(whole.db) };
    await whole.close();

    const moved = await brainWithTurns();
    const first = await processor(moved);
    const half = Math.floor(lines.length / 2) + 1;
    await catchUp(moved.db, moved.log, first, { batchSize: 37, until: half });
    // Another member takes over: a new processor with an empty cache, same checkpoint.
    await catchUp(moved.db, moved.log, await processor(moved), { batchSize: 37 });
    await moved.catchUp();
    expect(expected.rows.length).toBeGreaterThan(20);
    expect(await feedbackRows(moved.db)).toEqual(expected.rows);
    const states = await sessionStates(moved.db);
    expect(states).toEqual(expected.sessions);
    // Stored as JSON objects on every driver, so a reload reads a state, not a string.
    expect(typeof Object.values(states)[0]).toBe('object');
    await moved.close();
  });
});
