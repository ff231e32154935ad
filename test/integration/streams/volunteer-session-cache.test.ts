// The volunteer processor keeps only the most recently used sessions in memory: a long-running
// serve meets sessions without end. An evicted session reloads from `session_state`, so a tiny
// cache decides exactly as an unbounded one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrainOn } from '../../../src/brain/brain.js';
import { openMemoryDb } from '../../support/databases.js';
import { makeEvent } from '../../../src/domain/events.js';
import { catchUp } from '../../../src/event-log/consumer.js';
import { importFolder } from '../../../src/ops/import-folder.js';
import { PageIndexFollower } from '../../../streams/page-index-follower.js';
import { createVolunteerProcessor, lastDecidedTurn } from '../../../streams/volunteer-processor.js';
import type { TopologySettings } from '../../../streams/decide-turns.js';
import { conversationStream, streamPages, writeBrain, type TurnLine } from '../kafka/support/conversation-stream.js';
import { feedbackRows, sessionStates } from '../kafka/support/embedded-reference.js';

const settings: TopologySettings = { windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false };
const turnEvent = (l: TurnLine) =>
  makeEvent('turn.appended', { session_id: l.session_id, turn: l.turn, role: l.role, text: l.text, source_id: 'default' }, { key: l.session_id, at: l.at });

let dir: string;
let lines: TurnLine[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bs-session-cache-'));
  writeBrain(dir, streamPages(60));
  // 7 conversations interleaved: every batch of 5 turns touches sessions the cache of 2 just dropped.
  lines = conversationStream(streamPages(60), 7, 12);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(maxCachedSessions?: number) {
  const brain = await openBrainOn(await openMemoryDb());
  await importFolder(brain, dir, 'default');
  await brain.log.append(lines.map(turnEvent));
  const pages = await PageIndexFollower.load(brain.db, brain.log);
  const processor = createVolunteerProcessor({ log: brain.log, pages, settings: () => settings, maxCachedSessions });
  const cached: number[] = [];
  await catchUp(brain.db, brain.log, processor, { batchSize: 5, onProgress: () => cached.push(processor.cachedSessions()) });
  await brain.catchUp();
  const result = { rows: await feedbackRows(brain.db), sessions: await sessionStates(brain.db), cached, lastTurn: await lastDecidedTurn(brain.db, 'conv-3') };
  await brain.close();
  return result;
}

describe('volunteer processor session cache', () => {
  it('stays within its bound and decides exactly as an unbounded cache', async () => {
    const unbounded = await run();
    const bounded = await run(2);
    expect(Math.max(...unbounded.cached)).toBe(7);
    expect(Math.max(...bounded.cached)).toBeLessThanOrEqual(2);
    expect(unbounded.rows.length).toBeGreaterThan(10);
    expect(bounded.rows).toEqual(unbounded.rows);
    expect(bounded.sessions).toEqual(unbounded.sessions);
    // What a restarted `watch` of that session continues from.
    expect(bounded.lastTurn).toBe(12);
  });
});
