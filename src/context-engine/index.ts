// brainstream's context-engine surface: the core block a host adds every turn.
export { createCoreContext, CORE_BLOCK_TIMEOUT_MS, type CoreContext, type CoreContextOptions, type CoreSession } from './core-context.js';
export { fetchCoreBlock, type FetchedCoreBlock } from './fetch-core-block.js';
export { MAX_CORE_CACHE_MS } from './ttl-cache.js';
export { createOpenClawCoreEngine, estimateTokens, OPENCLAW_ENGINE_ID, type OpenClawContextEngine } from './openclaw-engine.js';
