import { readConfigFile } from '../config/config-file.js';
import { memorySettings } from '../core-memory/memory-settings.js';
import { readCoreCache } from '../hooks/core-cache.js';
import { callServe } from '../hooks/serve-call.js';

/** A session block as a context engine received it, and from where. */
export interface FetchedCoreBlock {
  /** The owner session block ("" when core is off or no page renders). */
  text: string;
  /** Core revision (a hash) of the brain-wide block ("" when unknown). */
  revision: string;
  /** `serve`: the `core_block` request; `cache-file`: serve's `run/core-cache.json`; `off`: the config says core is off. */
  via: 'serve' | 'cache-file' | 'off';
}

/** Core is delivered only while the stored config says so; a config that cannot be read delivers none. */
function coreEnabled(home: string): boolean {
  try {
    return memorySettings(readConfigFile(home)).coreEnabled;
  } catch {
    return false;
  }
}

/**
 * The owner session block of `sourceId`, read-only: serve's `core_block`
 * request, else the cache file serve keeps current. Never opens the brain: an engine lives in a
 * long-running host, and holding the brain lock there would lock the owner's own commands out.
 * Null when neither answered (nothing to deliver this turn, nothing worth caching).
 */
export async function fetchCoreBlock(home: string, sourceId: string, timeoutMs: number): Promise<FetchedCoreBlock | null> {
  const reply = await callServe(home, { kind: 'core_block', source_id: sourceId }, timeoutMs);
  if (reply.ok && typeof reply.body.text === 'string') {
    return { text: reply.body.text, revision: typeof reply.body.revision === 'string' ? reply.body.revision : '', via: 'serve' };
  }
  if (!coreEnabled(home)) return { text: '', revision: '', via: 'off' };
  const cached = readCoreCache(home, sourceId);
  return cached === null ? null : { text: cached.text, revision: cached.revision, via: 'cache-file' };
}
