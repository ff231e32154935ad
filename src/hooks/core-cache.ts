import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreDelivery } from './core-delivery.js';

const coreCachePath = (home: string): string => join(home, 'run', 'core-cache.json');

interface CachedBlock {
  text?: unknown;
  revision?: unknown;
  notices?: unknown;
  source_id?: unknown;
}

const delivery = (b: CachedBlock | undefined): CoreDelivery | null =>
  b && typeof b.text === 'string'
    ? {
        text: b.text,
        revision: typeof b.revision === 'string' ? b.revision : '',
        notices: Array.isArray(b.notices) ? b.notices.filter((n): n is string => typeof n === 'string') : [],
        via: 'cache',
      }
    : null;

/**
 * The session block of `sourceId` from `<home>/run/core-cache.json`, which serve keeps current:
 * `{enabled, revision, sources: {<source_id>: {text, revision, notices}}}`. Null when absent.
 * Only callers that have checked `memory.core.enabled` themselves may deliver what it returns.
 */
export function readCoreCache(home: string, sourceId: string): CoreDelivery | null {
  let cache: Record<string, unknown>;
  try {
    cache = JSON.parse(readFileSync(coreCachePath(home), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (cache === null || typeof cache !== 'object') return null;
  // `enabled` records the config when the file was written; the caller has just read the config
  // itself (core may have been switched on while serve was down), so the blocks are used as is.
  for (const key of ['sources', 'blocks']) {
    const map = cache[key] as Record<string, CachedBlock> | undefined;
    // A source without core pages of its own sees the default source's part only.
    if (map && typeof map === 'object') return delivery(map[sourceId] ?? map.default);
  }
  return (cache as CachedBlock).source_id === sourceId ? delivery(cache as CachedBlock) : null;
}
