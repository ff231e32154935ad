import { describe, expect, it } from 'vitest';
import { parseHookRequest } from '../../../src/serve/hook-request.js';

const req = (text: string): Buffer => Buffer.from(`${text}\0`, 'utf8');

describe('parseHookRequest (the fast hook client’s wire format)', () => {
  it('reads the header up to the blank line and the payload up to the NUL, newlines and UTF-8 kept', () => {
    const payload = '{"prompt":"Zoë\\nsaid hi",\n"x":1}\n';
    expect(parseHookRequest(req(`secret=abc\nevent=user-prompt\nharness=codex\ncwd=/w d\nenv.HOME=/home/u\nenv.BRAINSTREAM_SOURCE=\n\n${payload}`))).toEqual({
      secret: 'abc',
      event: 'user-prompt',
      harness: 'codex',
      cwd: '/w d',
      env: { HOME: '/home/u', BRAINSTREAM_SOURCE: '' },
      payload,
    });
  });

  it('is incomplete until the NUL arrives', () => {
    expect(parseHookRequest(Buffer.from('secret=abc\nevent=user-prompt\n\n{"a"'))).toBeNull();
  });

  it('keeps only the forwarded environment keys and ignores unknown header keys', () => {
    const parsed = parseHookRequest(req('secret=s\nevent=compact\nfuture=1\nenv.PATH=/evil\nenv.NODE_OPTIONS=--inspect\nenv.CODEX_HOME=/c\n\n{}'));
    expect(parsed?.env).toEqual({ CODEX_HOME: '/c' });
  });

  it('values may contain "="', () => {
    expect(parseHookRequest(req('secret=a=b\nevent=compact\n\n{}'))?.secret).toBe('a=b');
  });

  it('refuses a header line without "=" and a request without a blank line, naming the problem', () => {
    expect(() => parseHookRequest(req('secret=s\nnonsense\n\n{}'))).toThrow(/header line without "=": "nonsense"/);
    expect(() => parseHookRequest(req('secret=s\nevent=compact'))).toThrow(/no blank line after the header/);
  });
});
