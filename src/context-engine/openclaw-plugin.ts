import { createCoreContext } from './core-context.js';
import { createOpenClawCoreEngine, OPENCLAW_ENGINE_ID, type CompactParams, type CompactResult } from './openclaw-engine.js';

/** What the plugin reads from `plugins.entries.brainstream.config` (see openclaw.plugin.json). */
interface PluginConfig {
  home?: unknown;
  source?: unknown;
}

/** The part of OpenClaw's plugin API the plugin calls. */
export interface OpenClawPluginApi {
  pluginConfig?: PluginConfig;
  registerContextEngine(id: string, factory: (ctx?: unknown) => unknown): void;
}

// A variable specifier: the SDK exists only inside OpenClaw, so it is resolved there, at call time.
const SDK_CORE = 'openclaw/plugin-sdk/core';

/** OpenClaw's built-in compaction, reached through its plugin SDK. */
async function delegateToOpenClaw(params: CompactParams): Promise<CompactResult> {
  let sdk: { delegateCompactionToRuntime?: (p: CompactParams) => Promise<CompactResult> };
  try {
    sdk = (await import(SDK_CORE)) as typeof sdk;
  } catch (err) {
    return { ok: false, compacted: false, reason: `brainstream cannot reach ${SDK_CORE} (${(err as Error).message}); select the legacy context engine` };
  }
  if (typeof sdk.delegateCompactionToRuntime !== 'function') {
    return { ok: false, compacted: false, reason: `${SDK_CORE} has no delegateCompactionToRuntime; select the legacy context engine` };
  }
  return sdk.delegateCompactionToRuntime(params);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * brainstream as an OpenClaw plugin: registers the `brainstream` context
 * engine, which adds the owner's core block to every run. Select it with
 * `plugins.slots.contextEngine: "brainstream"`.
 */
const brainstreamPlugin = {
  id: OPENCLAW_ENGINE_ID,
  name: 'brainstream core memory',
  description: "Adds the brainstream owner's core-memory block to the system prompt of every run.",
  kind: 'context-engine',
  register(api: OpenClawPluginApi): void {
    const config = api.pluginConfig ?? {};
    const core = createCoreContext({ home: text(config.home), sourceId: text(config.source) });
    api.registerContextEngine(OPENCLAW_ENGINE_ID, () => createOpenClawCoreEngine(core, delegateToOpenClaw));
  },
};

export default brainstreamPlugin;
