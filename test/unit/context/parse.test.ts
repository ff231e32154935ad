import { describe, expect, it } from 'vitest';
import { parseWatchLine } from '../../../src/context/parse-watch-line.js';
import { parseWindowText } from '../../../src/context/parse-window.js';

describe('parseWindowText', () => {
  it.each([
    [
      'user: ask Alice about the deal\nassistant: noted\nuser: what did she say?',
      [
        { role: 'user', text: 'ask Alice about the deal' },
        { role: 'assistant', text: 'noted' },
        { role: 'user', text: 'what did she say?' },
      ],
    ],
    ['user: hello\r\nassistant: hi\r\n', [{ role: 'user', text: 'hello' }, { role: 'assistant', text: 'hi' }]],
    ['met with Alice Example today\nshe asked about acme', [{ role: 'user', text: 'met with Alice Example today\nshe asked about acme' }]],
    ['user: first line\nsecond line\nassistant: ok', [{ role: 'user', text: 'first line\nsecond line' }, { role: 'assistant', text: 'ok' }]],
    ['user:   \nassistant: ok', [{ role: 'assistant', text: 'ok' }]],
  ])('table row %#', (input, turns) => {
    expect(parseWindowText(input)).toEqual(turns);
  });

  it('blank or whitespace-only input has no turns', () => {
    expect(parseWindowText('')).toEqual([]);
    expect(parseWindowText('  \n\t\r\n ')).toEqual([]);
  });

  it('prefixes are case-insensitive, allow spaces before the colon and need no space after', () => {
    expect(parseWindowText('USER: hi\nassistant:nospace\nAssistant :  x')).toEqual([
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'nospace' },
      { role: 'assistant', text: 'x' },
    ]);
  });

  it('leading whitespace, system: and tool: lines do not start turns', () => {
    expect(parseWindowText('user: a\n  user: x\nsystem: y\ntool: z')).toEqual([
      { role: 'user', text: 'a\n  user: x\nsystem: y\ntool: z' },
    ]);
  });

  it('keeps blank lines inside a turn and skips blank lines before the first turn', () => {
    expect(parseWindowText('\n\n  \nuser: a\n\nb')).toEqual([{ role: 'user', text: 'a\n\nb' }]);
  });

  it('an empty first text line adds no leading newline', () => {
    expect(parseWindowText('user:\nnext line')).toEqual([{ role: 'user', text: 'next line' }]);
  });

  it('unprefixed lines before a prefix form an implicit user turn', () => {
    expect(parseWindowText('intro\nassistant: ok')).toEqual([
      { role: 'user', text: 'intro' },
      { role: 'assistant', text: 'ok' },
    ]);
  });
});

describe('parseWatchLine', () => {
  it('one line is one turn, prefix optional', () => {
    expect(parseWatchLine('user: hi there')).toEqual({ role: 'user', text: 'hi there' });
    expect(parseWatchLine('Assistant :  ok  ')).toEqual({ role: 'assistant', text: 'ok' });
    expect(parseWatchLine('  met Alice Example\r')).toEqual({ role: 'user', text: 'met Alice Example' });
    expect(parseWatchLine('system: x')).toEqual({ role: 'user', text: 'system: x' });
  });

  it('blank lines and empty texts are skipped', () => {
    expect(parseWatchLine('')).toBeNull();
    expect(parseWatchLine('   \r')).toBeNull();
    expect(parseWatchLine('user:   ')).toBeNull();
    expect(parseWatchLine('assistant:')).toBeNull();
  });
});
