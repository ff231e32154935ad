import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeHookBlock, priorContextOf, BLOCK_MARKER } from '../../../src/hooks/prior-context.js';
import { claudeCodeTurn } from '../../../src/hooks/transcript-turns.js';
import { codexHookBlock, codexTurn } from '../../../src/hooks/codex-transcript.js';
import { usageFromTranscript } from '../../../src/core-memory/transcript-usage.js';

const fixture = resolve(import.meta.dirname, '../../fixtures/claude-code/transcript.jsonl');
const entries = readFileSync(fixture, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Record<string, unknown>);

type Entry = Record<string, unknown>;
/** What a per-entry reader of the hook finds in each of `entries`, the misses dropped. */
const found = <T>(entries: readonly Entry[], read: (e: Entry) => T | null): T[] => entries.map(read).filter((x): x is T => x !== null);

describe('Claude Code transcript turns', () => {
  it('keeps user/assistant entries off the sidechain, with block placeholders', () => {
    expect(found(entries, claudeCodeTurn)).toEqual([
      { role: 'user', text: 'Who should I talk to about the seed round?' },
      { role: 'assistant', text: '[thinking]\nAlice Example led a similar round last year.\n[tool: Read]' },
      { role: 'user', text: '[tool result]' },
      { role: 'assistant', text: 'The seed notes point to Carol for the cap table.' },
      { role: 'user', text: 'Here is the term sheet screenshot.\n[image]' },
      { role: 'assistant', text: 'The term sheet looks standard.' },
    ]);
  });

  it('drops empty turns', () => {
    const turns = found([
      { type: 'user', message: { role: 'user', content: '   ' } },
      { type: 'assistant', message: { content: [{ type: 'unknown_block' }] } },
      { type: 'user', message: { content: 'ok' } },
    ], claudeCodeTurn);
    expect(turns).toEqual([{ role: 'user', text: 'ok' }]);
  });

  it('reads the usage of the last assistant entry for the pressure notice', () => {
    expect(usageFromTranscript(entries)).toEqual({ used_tokens: 4 + 1200 + 17540, last_turn_tokens: 4 + 1200 + 17540 - (4 + 410 + 17130) });
  });
});

describe('cross-turn dedupe', () => {
  it('takes only blocks carrying the brainstream markers from structured attachments', () => {
    const blocks = found(entries, claudeCodeHookBlock);
    expect(blocks).toHaveLength(2);
    const prior = priorContextOf(blocks);
    expect(prior).toContain('people/alice-example');
    // Another hook's attachment and the tool result's text never count.
    expect(prior).not.toContain('people/bob-sample');
    expect(prior).not.toContain('people/carol-xu');
  });

  it('collapses identical blocks, keeps the newest within the budget, skipping what does not fit', () => {
    const a = `${BLOCK_MARKER}\na`;
    const big = `${BLOCK_MARKER}\n${'x'.repeat(200)}`;
    const c = `${BLOCK_MARKER}\nc`;
    const budget = Buffer.byteLength(a) + 2 + Buffer.byteLength(c) + 2 + 10;
    expect(priorContextOf([a, c, big, c], budget)).toBe(`${a}\n\n${c}`);
    expect(priorContextOf(['## Brain pages mentioned this turn\n- x', 'plain user text people/x'])).toBe('## Brain pages mentioned this turn\n- x');
  });
});

describe('Codex rollout transcript', () => {
  const rollout = [
    { type: 'session_meta', payload: { id: 's' } },
    { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] } },
    { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'ping Alice Example' }] } },
    {
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: `${BLOCK_MARKER}\n- people/alice-example` }],
        internal_chat_message_metadata_passthrough: { content_item_kinds: ['hooks.additional_context'] },
      },
    },
    { type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{}' } },
    { type: 'response_item', payload: { type: 'function_call_output', output: 'people/bob-sample' } },
    { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] } },
  ];

  it('reads turns and hook blocks from response items', () => {
    expect(found(rollout, codexTurn)).toEqual([
      { role: 'user', text: 'ping Alice Example' },
      { role: 'assistant', text: '[tool: shell]' },
      { role: 'user', text: '[tool result]' },
      { role: 'assistant', text: 'done' },
    ]);
    expect(priorContextOf(found(rollout, codexHookBlock))).toBe(`${BLOCK_MARKER}\n- people/alice-example`);
  });
});
