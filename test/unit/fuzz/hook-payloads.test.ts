import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hookPressureNotice } from '../../../src/hooks/hook-pressure.js';
import { readHookStdin } from '../../../src/hooks/read-hook-stdin.js';
import { MAX_TOOL_LINES, MAX_TOOL_TEXT_CHARS, toolTurnText } from '../../../src/hooks/tool-text.js';
import { fitTurnContextRequest, MAX_REQUEST_LINE_BYTES, type TurnContextPayload } from '../../../src/hooks/turn-context-request.js';
import { fuzzRuns, hostileBytes, hostileText, mutatedJson } from '../../support/fuzz.js';

const fixtures = (dir: string): unknown[] =>
  readdirSync(new URL(`../../fixtures/${dir}/`, import.meta.url))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(new URL(`../../fixtures/${dir}/${f}`, import.meta.url), 'utf8')) as unknown);
const PAYLOADS = [...fixtures('claude-code'), ...fixtures('codex')];

/** Harness payloads: the recorded ones mutated, as bytes, sometimes cut short or with noise around them. */
const payloadBytes = fc.oneof(
  fc.constantFrom(...PAYLOADS).chain(mutatedJson).map((v) => Buffer.from(JSON.stringify(v) ?? '')),
  fc.constantFrom(...PAYLOADS).chain((p) => {
    const text = JSON.stringify(p);
    return fc.nat(text.length).map((n) => Buffer.from(text.slice(0, n)));
  }),
  fc.tuple(fc.constantFrom(...PAYLOADS), hostileBytes(20)).map(([p, noise]) => Buffer.concat([Buffer.from(JSON.stringify(p)), Buffer.from(noise)])),
  hostileBytes(200).map((b) => Buffer.from(b)),
);

/** The same bytes in chunks cut anywhere, UTF-8 sequences included. */
const chunked = (bytes: Buffer): fc.Arbitrary<Buffer[]> =>
  fc.array(fc.nat(Math.max(0, bytes.length)), { maxLength: 5 }).map((cuts) => {
    const at = [0, ...[...new Set(cuts)].sort((a, b) => a - b), bytes.length];
    return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
  });

const asObject = (bytes: Buffer): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

describe('hook stdin payloads, whatever arrives', () => {
  it('read as the JSON object they hold, in any chunking, or as null; never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(payloadBytes.chain((b) => chunked(b).map((chunks) => [b, chunks] as const)), async ([bytes, chunks]) => {
        // The deadline is far off: the stream's end decides, however slow the machine.
        const read = await readHookStdin(600_000, Readable.from(chunks));
        expect(read).toEqual(asObject(bytes));
      }),
      fuzzRuns(500),
    );
  });

  it('give tool turns of prose lines only: bounded, each once, no URLs, nothing for writing tools', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PAYLOADS).chain(mutatedJson),
        (p) => {
          const input = (p !== null && typeof p === 'object' ? p : {}) as Record<string, unknown>;
          const tool = typeof input.tool_name === 'string' ? input.tool_name : 'unknown';
          const text = toolTurnText(tool, input.tool_input, input.tool_response);
          if (['Write', 'Edit', 'MultiEdit', 'apply_patch'].includes(tool)) expect(text).toBe('');
          if (text === '') return;
          const lines = text.split('\n');
          expect(text.length).toBeLessThanOrEqual(MAX_TOOL_TEXT_CHARS);
          expect(lines.length).toBeLessThanOrEqual(MAX_TOOL_LINES);
          expect(new Set(lines).size).toBe(lines.length);
          for (const line of lines) {
            expect(line).toBe(line.trim());
            expect(line.length).toBeGreaterThanOrEqual(3);
            expect(line).not.toMatch(/\b[a-z][a-z0-9+.-]*:\/\/\S/i);
          }
        },
      ),
      fuzzRuns(1000),
    );
  });

  it('of tool output that is huge or deeply nested stay within the bounds', () => {
    fc.assert(
      fc.property(hostileText(40), fc.integer({ min: 1, max: 3000 }), fc.nat(50), (line, repeat, depth) => {
        const nested = Array.from({ length: depth }).reduce<unknown>((v) => ({ output: [v] }), `${line} and more words here\n`.repeat(repeat));
        const text = toolTurnText('Bash', { command: 'x' }, JSON.stringify(nested));
        expect(text.length).toBeLessThanOrEqual(MAX_TOOL_TEXT_CHARS);
        expect(text.split('\n').length).toBeLessThanOrEqual(MAX_TOOL_LINES);
      }),
      fuzzRuns(100),
    );
  });

  const home = mkdtempSync(join(tmpdir(), 'bs-fuzz-hook-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('decide the save-before-compaction notice from any context_usage and transcript usage without throwing', () => {
    const usage = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ used_tokens: fc.oneof(fc.double(), fc.integer()), window_tokens: fc.oneof(fc.double(), fc.constant(null)), last_turn_tokens: fc.double() }, { requiredKeys: [] }),
    );
    const entries = fc.array(
      mutatedJson({ type: 'assistant', message: { role: 'assistant', usage: { input_tokens: 150_000, cache_creation_input_tokens: 10, cache_read_input_tokens: 20_000 } } }),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...PAYLOADS).chain(mutatedJson), usage, entries, fc.boolean(), (p, contextUsage, usageEntries, withUsage) => {
        const input = { ...((p !== null && typeof p === 'object' && !Array.isArray(p) ? p : {}) as Record<string, unknown>), ...(withUsage ? { context_usage: contextUsage } : {}) };
        const notice = hookPressureNotice(home, input, usageEntries, new Date('2026-12-07T12:00:00Z'));
        if (notice !== null) expect(typeof notice).toBe('string');
      }),
      fuzzRuns(300),
    );
  });
});

describe('turn requests built from any hook input', () => {
  it('fit the request line, dropping the prior context and the oldest turns first and cutting the last one only as a last resort', () => {
    const turn = fc.record({
      role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const),
      text: fc.tuple(hostileText(20), fc.integer({ min: 1, max: 30_000 })).map(([t, n]) => t.repeat(n)),
    });
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 6 }), hostileText(30), (window, prior) => {
        const payload: TurnContextPayload = { kind: 'turn_context', window, prior_context: prior.repeat(1000), session_id: 's', channel: 'claude-code', shown: [] };
        const fit = fitTurnContextRequest(payload);
        expect(Buffer.byteLength(JSON.stringify(fit), 'utf8')).toBeLessThanOrEqual(MAX_REQUEST_LINE_BYTES);
        expect(fit.window.length).toBeGreaterThanOrEqual(1);
        const kept = window.slice(-fit.window.length);
        expect(fit.window.slice(0, -1)).toEqual(kept.slice(0, -1));
        expect(kept.at(-1)!.text.startsWith(fit.window.at(-1)!.text)).toBe(true);
        if (fit.prior_context !== '') expect(fit).toEqual(payload);
      }),
      fuzzRuns(100),
    );
  });
});
