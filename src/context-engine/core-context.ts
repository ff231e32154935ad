import { resolveHome } from '../home.js';
import { isSourceId, sessionSourceOf } from '../hooks/session-source.js';
import { fetchCoreBlock, type FetchedCoreBlock } from './fetch-core-block.js';
import { MAX_CORE_CACHE_MS, TtlCache } from './ttl-cache.js';

export interface CoreContextOptions {
  /** The brain's home; default `BRAINSTREAM_HOME`, else `~/.brainstream`. */
  home?: string;
  /** The session source `S`; default `BRAINSTREAM_SOURCE` when valid, else `default`. */
  sourceId?: string;
  /** How long a fetched block is reused, in ms; at most (and by default) 60 000. */
  ttlMs?: number;
  /** How long one `core_block` request may take, in ms (default 600). */
  timeoutMs?: number;
  /** The clock, in ms (default `Date.now`): tests move it instead of waiting. */
  now?: () => number;
  /** Where the switches are read (`BRAINSTREAM_CORE`, `BRAINSTREAM_SOURCE`, `BRAINSTREAM_HOME`); default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** How a block is fetched; default serve's `core_block`, else its cache file. */
  fetch?: (home: string, sourceId: string, timeoutMs: number) => Promise<FetchedCoreBlock | null>;
}

/** Which session asks, and optionally for which source (else the context's own). */
export interface CoreSession {
  /** Any stable id of the host's session (OpenClaw: `sessionKey`, else `sessionId`). */
  sessionKey?: string;
  sourceId?: string;
}

/** What a context engine needs from brainstream: the core block to add on every turn. */
export interface CoreContext {
  /**
   * The owner session block for `session`, fetched read-only and reused
   * for at most `ttlMs` per session and source. "" when core is off, suppressed
   * (`BRAINSTREAM_CORE=0`), empty, or when neither serve nor its cache file answered. Never throws.
   */
  sessionBlock(session?: CoreSession): Promise<string>;
}

export const CORE_BLOCK_TIMEOUT_MS = 600;

/**
 * The core block source a context engine wraps (an OpenClaw plugin, or any other host that
 * rebuilds its prompt every turn). Remote-edit notices are not included: they belong to the
 * session start.
 */
export function createCoreContext(options: CoreContextOptions = {}): CoreContext {
  const env = options.env ?? process.env;
  const home = resolveHome(options.home, env);
  const defaultSource = isSourceId(options.sourceId) ? options.sourceId : sessionSourceOf(env);
  const cache = new TtlCache<string>(options.ttlMs ?? MAX_CORE_CACHE_MS);
  const now = options.now ?? Date.now;
  const fetch = options.fetch ?? fetchCoreBlock;
  const timeoutMs = options.timeoutMs ?? CORE_BLOCK_TIMEOUT_MS;

  return {
    async sessionBlock(session: CoreSession = {}): Promise<string> {
      if (env.BRAINSTREAM_CORE === '0') return '';
      const sourceId = isSourceId(session.sourceId) ? session.sourceId : defaultSource;
      const key = JSON.stringify([session.sessionKey ?? '', sourceId]);
      const hit = cache.get(key, now());
      if (hit !== undefined) return hit;
      let fetched: FetchedCoreBlock | null;
      try {
        fetched = await fetch(home, sourceId, timeoutMs);
      } catch {
        fetched = null;
      }
      if (fetched === null) return '';
      cache.set(key, fetched.text, now());
      return fetched.text;
    },
  };
}
