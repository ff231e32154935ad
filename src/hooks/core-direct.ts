import { openBrain } from '../brain/brain.js';
import { coreRevision, renderBrainWideBlock, renderSessionBlock } from '../core-memory/core-block.js';
import { coreNoticeLines } from '../core-memory/core-notices.js';
import { loadCoreRows } from '../ops/operations/core-rows.js';
import { readPendingNotices } from '../ops/operations/core-notice-reader.js';
import type { CoreDelivery } from './core-delivery.js';

/**
 * The owner's session block rendered by opening the brain in this process: the last resort of
 * `hook session-start` when neither serve nor its cache answers (core-memory §8.2).
 */
export async function renderCoreDirect(home: string, sourceId: string, now: Date): Promise<CoreDelivery> {
  const brain = await openBrain(home);
  try {
    const rows = await loadCoreRows(brain.db);
    const today = now.toISOString().slice(0, 10);
    const block = renderSessionBlock(rows, { sessionSource: sourceId, readable: null }, today);
    const notices = coreNoticeLines(await readPendingNotices(brain.db));
    return { text: block.text, revision: coreRevision(renderBrainWideBlock(rows, today).text), notices, via: 'direct' };
  } finally {
    await brain.close();
  }
}
