import { describe, expect, it } from 'vitest';
import type { CoreContext, CoreSession } from '../../../src/context-engine/core-context.js';
import { createOpenClawCoreEngine, estimateTokens, OPENCLAW_ENGINE_ID, type CompactParams } from '../../../src/context-engine/openclaw-engine.js';
import plugin, { type OpenClawPluginApi } from '../../../src/context-engine/openclaw-plugin.js';

/** A core source that records who asked. */
function coreOf(block: string): CoreContext & { asked: CoreSession[] } {
  const asked: CoreSession[] = [];
  return { asked, sessionBlock: async (session = {}) => (asked.push(session), block) };
}

const messages = [
  { role: 'user', content: 'Who runs the widget deal?' },
  { role: 'assistant', content: [{ type: 'text', text: 'Bob does.' }, { type: 'image', data: 'aGVsbG8=' }] },
];

describe('the OpenClaw context engine', () => {
  it('keeps the messages as they are and adds the core block to the system prompt', async () => {
    const core = coreOf('# Core memory\n\n## Profile (core/profile)\n\nI prefer terse answers.');
    const engine = createOpenClawCoreEngine(core, async () => ({ ok: true, compacted: false }));
    const result = await engine.assemble({ sessionId: 'sid-1', sessionKey: 'agent:main:1', messages, tokenBudget: 100_000 });
    expect(result.messages).toBe(messages);
    expect(result.systemPromptAddition).toBe('# Core memory\n\n## Profile (core/profile)\n\nI prefer terse answers.');
    expect(result.estimatedTokens).toBe(estimateTokens(messages, result.systemPromptAddition!));
    expect(core.asked).toEqual([{ sessionKey: 'agent:main:1' }]);
    // Without a session key the session id names the session.
    await engine.assemble({ sessionId: 'sid-2', messages: [] });
    expect(core.asked.at(-1)).toEqual({ sessionKey: 'sid-2' });
  });

  it('adds nothing when there is no core block', async () => {
    const result = await createOpenClawCoreEngine(coreOf(''), async () => ({ ok: true, compacted: false })).assemble({ sessionId: 's', messages });
    expect(result).toEqual({ messages, estimatedTokens: estimateTokens(messages, '') });
    expect(result).not.toHaveProperty('systemPromptAddition');
  });

  it('does not own compaction: compact() is handed to the runtime with the host parameters', async () => {
    const seen: CompactParams[] = [];
    const engine = createOpenClawCoreEngine(coreOf(''), async (p) => (seen.push(p), { ok: true, compacted: true }));
    expect(engine.info).toMatchObject({ id: OPENCLAW_ENGINE_ID, ownsCompaction: false });
    expect(await engine.compact({ sessionId: 's', sessionFile: '/x.jsonl', force: true })).toEqual({ ok: true, compacted: true });
    expect(seen).toEqual([{ sessionId: 's', sessionFile: '/x.jsonl', force: true }]);
    expect(await engine.ingest({ sessionId: 's', message: messages[0] })).toEqual({ ingested: false });
  });

  it('counts text only, four characters a token', () => {
    // 25 + 9 characters of text, the image not counted; plus 6 of addition → ceil(40 / 4).
    expect(estimateTokens(messages, 'ADDED!')).toBe(10);
    expect(estimateTokens([], '')).toBe(0);
    expect(estimateTokens([null, { content: 42 }, { content: [null, { text: 7 }] }], 'x')).toBe(1);
  });

  it('the plugin registers the engine under its own id; compaction outside OpenClaw says why it cannot run', async () => {
    const registered: [string, (ctx?: unknown) => unknown][] = [];
    const api: OpenClawPluginApi = { pluginConfig: { home: '/nonexistent/brainstream-home', source: 'work' }, registerContextEngine: (id, factory) => void registered.push([id, factory]) };
    plugin.register(api);
    expect(plugin).toMatchObject({ id: OPENCLAW_ENGINE_ID, kind: 'context-engine' });
    expect(registered.map(([id]) => id)).toEqual([OPENCLAW_ENGINE_ID]);
    const engine = registered[0]![1]({}) as ReturnType<typeof createOpenClawCoreEngine>;
    // No serve and no cache file in that home: nothing to add, and no error.
    expect(await engine.assemble({ sessionId: 's', messages })).toEqual({ messages, estimatedTokens: estimateTokens(messages, '') });
    const compacted = await engine.compact({ sessionId: 's' });
    expect(compacted).toMatchObject({ ok: false, compacted: false });
    expect(compacted.reason).toMatch(/openclaw\/plugin-sdk\/core.*select the legacy context engine/);
  });
});
