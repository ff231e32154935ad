import { describe, expect, it } from 'vitest';
import { fitAdditionalContext, userPromptJson } from '../../../src/hooks/hook-output.js';
import { fitTurnContextRequest, MAX_REQUEST_LINE_BYTES } from '../../../src/hooks/turn-context-request.js';
import { sessionStartText } from '../../../src/hooks/session-start-output.js';
import { cutUtf8, memoryDigest } from '../../../src/hooks/memory-digest.js';
import { parseHookArgs } from '../../../src/hooks/hook-argv.js';

describe('hook output', () => {
  it('is the harness JSON with the notice first', () => {
    const fit = fitAdditionalContext('NOTICE', 'block line 1\nblock line 2');
    expect(fit.text).toBe('NOTICE\n\nblock line 1\nblock line 2');
    expect(JSON.parse(userPromptJson(fit.text!))).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: fit.text } });
  });

  it('drops trailing block lines to fit, never the notice', () => {
    const block = Array.from({ length: 20 }, (_, i) => `line ${i} ${'x'.repeat(80)}`).join('\n');
    const fit = fitAdditionalContext('N'.repeat(500), block, 1000);
    expect(fit.text!.length).toBeLessThanOrEqual(1000);
    expect(fit.text!.startsWith('N'.repeat(500))).toBe(true);
    expect(fit.trimmed).toBe(true);
    expect(fitAdditionalContext(null, 'y'.repeat(2000), 1000)).toMatchObject({ text: null, blockDropped: true });
  });
});

describe('turn_context request size', () => {
  it('drops prior context first, then the oldest turns', () => {
    const big = 'a'.repeat(150 * 1024);
    const req = { kind: 'turn_context' as const, window: [{ role: 'user' as const, text: big }, { role: 'assistant' as const, text: big }, { role: 'user' as const, text: 'newest' }], prior_context: big, channel: 'claude-code' };
    const fitted = fitTurnContextRequest(req);
    expect(fitted.prior_context).toBe('');
    expect(fitted.window.map((t) => t.text.length)).toEqual([big.length, 6]);
    expect(Buffer.byteLength(JSON.stringify(fitted))).toBeLessThan(MAX_REQUEST_LINE_BYTES);
    const small = { ...req, window: [{ role: 'user' as const, text: 'hi' }], prior_context: 'p' };
    expect(fitTurnContextRequest(small)).toEqual(small);
  });
});

describe('session-start output', () => {
  it('joins parts with blank lines and trims the digest, then notices, never core', () => {
    expect(sessionStartText({ core: '# Core memory', notices: ['n1'], digest: 'From MEMORY.md:\nx' })).toBe('# Core memory\n\nn1\n\nFrom MEMORY.md:\nx\n');
    const core = 'c'.repeat(60);
    const text = sessionStartText({ core, notices: ['n'.repeat(20), 'm'.repeat(20)], digest: `From MEMORY.md:\n${'d'.repeat(30)}` }, 90);
    expect(text).toBe(`${core}\n\n${'n'.repeat(20)}\n`);
    expect(sessionStartText({ core: '', notices: [], digest: '' })).toBe('');
  });
});

describe('MEMORY.md digest', () => {
  it('keeps the standing-rules, open-commitments and active-context sections', () => {
    const md = '# Project\nintro\n## Standing Rules\n- never push to main\n#### detail kept\n## Notes\nskip me\n### Active context\n- shipping v2\n';
    expect(memoryDigest(md)).toBe('From MEMORY.md:\n## Standing Rules\n- never push to main\n#### detail kept\n### Active context\n- shipping v2');
    expect(memoryDigest('# Nothing\nhere')).toBe('');
  });

  it('cuts long digests at 3 070 bytes on a character boundary, then adds …', () => {
    const digest = memoryDigest(`## Open commitments\n${'é'.repeat(3000)}`);
    expect(digest.endsWith('…')).toBe(true);
    expect(Buffer.byteLength(digest.slice(0, -1))).toBeLessThanOrEqual(3070);
    expect(cutUtf8('aé', 2)).toBe('a');
  });
});

describe('hook command line', () => {
  it('finds the event, harness and home without the full CLI', () => {
    expect(parseHookArgs(['--home', '/h', 'hook', 'user-prompt', '--harness', 'codex'])).toEqual({ home: '/h', event: 'user-prompt', rawEvent: 'user-prompt', harness: 'codex' });
    expect(parseHookArgs(['hook', 'session-start', '--harness=zed'])).toMatchObject({ event: 'session-start', harness: 'claude-code' });
    expect(parseHookArgs(['hook', 'nope'])).toMatchObject({ event: null });
    expect(parseHookArgs(['hook'])).toMatchObject({ event: null });
    expect(parseHookArgs(['page', 'list'])).toBeNull();
    expect(parseHookArgs(['hook', '--help'])).toBeNull();
  });
});
