import { renameSync, writeFileSync } from 'node:fs';
import { writePageSnapshot } from '../cold/write-snapshot.js';
import { join } from 'node:path';
import { homePaths } from '../home.js';
import type { Brain } from '../brain/brain.js';
import { logger } from '../logger.js';
import { listSources } from '../../projections/pages-queries.js';
import { loadCoreState, sessionBlockText, type CoreState } from './core-session-block.js';

const coreCacheFile = (home: string): string => join(homePaths(home).run, 'core-cache.json');

/**
 * `<home>/run/core-cache.json`: the owner session block per source, for
 * `hook session-start` while serve is down. Shape:
 * `{v: 1, written_at, enabled, revision, sources: {<source_id>: {text, revision, notices}}}`.
 * Blocks are rendered whatever `enabled` says (it is the config when written): the reader decides
 * delivery from the config it reads then, so switching core on while serve is down still works.
 * A source missing from `sources` has no core pages of its own: it gets `default`'s block.
 */
export function writeCoreCache(home: string, state: CoreState, sourceIds: readonly string[], now: Date): void {
  const sources: Record<string, { text: string; revision: string; notices: string[] }> = {};
  for (const id of new Set(['default', ...sourceIds])) sources[id] = { text: sessionBlockText(state, id), revision: state.revision, notices: state.notices };
  const body = { v: 1, written_at: now.toISOString(), enabled: state.enabled, revision: state.revision, sources };
  const path = coreCacheFile(home);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(body)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * Rewrites what a process that has not opened the brain reads: the page-index snapshot and the
 * core cache. Serve keeps both current while it runs; a command that changed pages while serve
 * is down, or found them missing or behind, calls this before closing the brain. Failures are
 * logged, never thrown (the cold path stays off until a later write succeeds).
 */
export async function refreshColdFiles(brain: Brain, home: string): Promise<void> {
  try {
    await writePageSnapshot(brain, home);
    writeCoreCache(home, await loadCoreState(brain, new Date()), await listSources(brain.db), new Date());
  } catch (err) {
    logger.warn({ err }, 'could not refresh the page snapshot and core cache');
  }
}
