import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Turn } from '../../../src/context/turn.js';
import { codexHookBlock, codexTurn } from '../../../src/hooks/codex-transcript.js';
import { HOOK_WINDOW_TURNS, readHookTranscript } from '../../../src/hooks/hook-transcript.js';
import { claudeCodeHookBlock, priorContextOf, shownSlugs } from '../../../src/hooks/prior-context.js';
import { parseLine } from '../../../src/hooks/transcript-tail.js';
import { claudeCodeTurn, hasUsage } from '../../../src/hooks/transcript-turns.js';
import { fuzzRuns, hostileBytes, hostileText, mutatedJson } from '../../support/fuzz.js';

const CLAUDE_LINES = readFileSync(new URL('../../fixtures/claude-code/transcript.jsonl', import.meta.url), 'utf8').split('\n').filter((l) => l !== '');
const CODEX_LINES = [
  { type: 'session_meta', payload: { id: 's1', cwd: '/x' } },
  { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Is Alice Example in?' }] } },
  { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] } },
  { type: 'response_item', payload: { type: 'reasoning', summary: [] } },
  { type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{}' } },
  { type: 'response_item', payload: { type: 'function_call_output', output: 'ok' } },
  {
    type: 'response_item',
    payload: {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: '## Brain pages mentioned this turn\n- **Alice Example** → `people/alice-example`' }],
      internal_chat_message_metadata_passthrough: { content_item_kinds: ['hooks.additional_context'] },
    },
  },
  { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'She is.' }, { type: 'input_image' }] } },
].map((e) => JSON.stringify(e));

function expectTurn(t: Turn | null): void {
  if (t === null) return;
  expect(['user', 'assistant']).toContain(t.role);
  expect(typeof t.text).toBe('string');
  expect(t.text.trim()).not.toBe('');
}

/** Entries as the harness writes them, mutated, or any JSON object at all. */
const entry = (lines: string[]): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    fc.constantFrom(...lines).chain((l) => mutatedJson(JSON.parse(l))),
    fc.dictionary(fc.constantFrom('type', 'message', 'payload', 'attachment', 'isSidechain', 'content'), fc.jsonValue({ maxDepth: 4 })),
  ).filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));

describe('transcript entries, whatever they hold', () => {
  it('of Claude Code become a trimmed non-empty user/assistant turn or nothing, a block or nothing, and never throw', () => {
    fc.assert(
      fc.property(entry(CLAUDE_LINES), (e) => {
        expectTurn(claudeCodeTurn(e));
        expect(typeof hasUsage(e)).toBe('boolean');
        const block = claudeCodeHookBlock(e);
        if (block !== null) expect(typeof block).toBe('string');
      }),
      fuzzRuns(1000),
    );
  });

  it('of Codex likewise', () => {
    fc.assert(
      fc.property(entry(CODEX_LINES), (e) => {
        expectTurn(codexTurn(e));
        const block = codexHookBlock(e);
        if (block !== null) expect(typeof block).toBe('string');
      }),
      fuzzRuns(2000),
    );
  });

  it('lines that are not one JSON object (cut short, binary, arrays, scalars) read as nothing', () => {
    const notObject = fc.oneof(
      hostileText(200),
      fc.constantFrom(...CLAUDE_LINES, ...CODEX_LINES).chain((l) => fc.nat(l.length - 1).map((n) => l.slice(0, n))),
      fc.jsonValue().filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)).map((v) => JSON.stringify(v)),
    );
    fc.assert(
      fc.property(notObject, (line) => {
        let object = false;
        try {
          const v: unknown = JSON.parse(line);
          object = v !== null && typeof v === 'object' && !Array.isArray(v);
        } catch {
          // not JSON
        }
        expect(parseLine(line) !== null).toBe(object);
      }),
      fuzzRuns(1000),
    );
  });

  it('shown slugs of any prior context are non-empty single lines without backticks', () => {
    fc.assert(
      fc.property(fc.array(hostileText(100), { maxLength: 4 }), (blocks) => {
        for (const slug of shownSlugs(priorContextOf(blocks.map((b) => `## Brain pages mentioned this turn\n- **X** → \`${b}\``)))) {
          expect(slug).not.toBe('');
          expect(slug).not.toMatch(/[`\n]/);
        }
      }),
      fuzzRuns(500),
    );
  });
});

/** The same reading done the plain way: decode everything, keep the object lines, take the newest turns. */
function plainRead(bytes: Buffer, harness: 'claude-code' | 'codex', prompt: string) {
  const entries = bytes
    .toString('utf8')
    .split('\n')
    .map(parseLine)
    .filter((e) => e !== null);
  const turnOf = harness === 'codex' ? codexTurn : claudeCodeTurn;
  const blockOf = harness === 'codex' ? codexHookBlock : claudeCodeHookBlock;
  const turns = entries.map(turnOf).filter((t) => t !== null).slice(-(HOOK_WINDOW_TURNS + 1));
  const last = turns.at(-1);
  if (last && last.role === 'user' && last.text === prompt.trim()) turns.pop();
  const usage = harness === 'codex' ? [] : entries.filter(hasUsage).slice(-2);
  return { ok: true, usageEntries: usage, turns: turns.slice(-HOOK_WINDOW_TURNS), priorContext: priorContextOf(entries.map(blockOf).filter((b) => b !== null)) };
}

describe('a transcript file with hostile lines among the real ones', () => {
  let home: string;
  const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME };
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'bs-fuzz-transcript-'));
    mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
    mkdirSync(join(home, '.codex', 'sessions'), { recursive: true });
    process.env.HOME = home;
    process.env.CODEX_HOME = join(home, '.codex');
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(home, { recursive: true, force: true });
  });

  /** Real lines (some mutated), cut lines, binary noise and blank lines, in any order. */
  const transcript = (lines: string[]): fc.Arbitrary<Buffer> =>
    fc
      .array(
        fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...lines).map((l) => Buffer.from(`${l}\n`)) },
          { weight: 2, arbitrary: fc.constantFrom(...lines).chain((l) => mutatedJson(JSON.parse(l))).map((v) => Buffer.from(`${JSON.stringify(v)}\n`)) },
          { weight: 1, arbitrary: fc.constantFrom(...lines).chain((l) => fc.nat(l.length - 1).map((n) => Buffer.from(`${l.slice(0, n)}\n`))) },
          { weight: 1, arbitrary: hostileBytes(120).map((b) => Buffer.concat([Buffer.from(b), Buffer.from('\n')])) },
          { weight: 1, arbitrary: fc.constantFrom(Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from('  \n')) },
        ),
        { maxLength: 16 },
      )
      .chain((parts) => fc.boolean().map((cutEnd) => (cutEnd ? Buffer.concat(parts).subarray(0, -1) : Buffer.concat(parts))));

  for (const harness of ['claude-code', 'codex'] as const) {
    it(`of ${harness} reads the same turns, blocks and usage as decoding every line would: a bad line is skipped, the next still read`, () => {
      const lines = harness === 'codex' ? CODEX_LINES : CLAUDE_LINES;
      const path = harness === 'codex' ? join(home, '.codex', 'sessions', 'r.jsonl') : join(home, '.claude', 'projects', 't.jsonl');
      fc.assert(
        fc.property(transcript(lines), fc.constantFrom('', 'Is Alice Example in?', 'Who should I talk to about the seed round?'), (bytes, prompt) => {
          writeFileSync(path, bytes);
          expect(readHookTranscript(path, harness, prompt)).toEqual(plainRead(bytes, harness, prompt));
        }),
        fuzzRuns(300),
      );
    });
  }
});
