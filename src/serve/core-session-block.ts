import type { Brain } from '../brain/brain.js';
import { readConfigFile } from '../config/config-file.js';
import { coreRevision, renderBrainWideBlock, renderSessionBlock } from '../core-memory/core-block.js';
import { coreNoticeLines } from '../core-memory/core-notices.js';
import type { CorePageRow } from '../core-memory/core-page.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { loadCoreRows } from '../../projections/pages-queries.js';
import { readPendingCoreNotices } from '../../projections/core-notices-queries.js';
import type { CoreBlockResult } from '../serve-client/protocol.js';

/** What every owner session's core delivery is computed from, read once. */
export interface CoreState {
  enabled: boolean;
  rows: CorePageRow[];
  /** Remote-edit notice lines. */
  notices: string[];
  today: string;
  revision: string;
}

/** A stored config that cannot be read delivers no core (nothing is delivered unless enabled). */
function coreEnabled(home: string | null): boolean {
  if (home === null) return false;
  try {
    return memorySettings(readConfigFile(home)).coreEnabled;
  } catch {
    return false;
  }
}

export async function loadCoreState(brain: Brain, now: Date, rows?: CorePageRow[]): Promise<CoreState> {
  const coreRows = rows ?? (await loadCoreRows(brain.db));
  const today = now.toISOString().slice(0, 10);
  return {
    enabled: coreEnabled(brain.home),
    rows: coreRows,
    notices: coreNoticeLines(await readPendingCoreNotices(brain.db)),
    today,
    revision: coreRevision(renderBrainWideBlock(coreRows, today).text),
  };
}

/** The owner session block of `sourceId`: default's core pages, then the source's own. */
export const sessionBlockText = (state: CoreState, sourceId: string): string =>
  renderSessionBlock(state.rows, { sessionSource: sourceId, readable: null }, state.today).text;

/**
 * What `core_block` delivers: the session block and its notices, or "" and
 * none while `memory.core.enabled` is false.
 */
export function coreBlockOf(state: CoreState, sourceId: string): CoreBlockResult & { notices: string[] } {
  const text = state.enabled ? sessionBlockText(state, sourceId) : '';
  return { enabled: state.enabled, text, chars: text.length, revision: state.revision, notices: state.enabled ? state.notices : [] };
}
