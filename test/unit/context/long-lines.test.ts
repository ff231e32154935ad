import { describe, expect, it } from 'vitest';
import { parseWatchLine } from '../../../src/context/parse-watch-line.js';
import { parseWindowText } from '../../../src/context/parse-window.js';

/** About 10 MB of a character outside Latin-1: the regular expression engine's worst case. */
const LONG = 'ж'.repeat(10_000_000);

describe('a very long line', () => {
  it('is one watch turn, prefixed or not, and never overflows the stack', () => {
    expect(parseWatchLine(`user: ${LONG}`)?.text.length).toBe(LONG.length);
    expect(parseWatchLine(`assistant:${LONG}`)).toMatchObject({ role: 'assistant' });
    expect(parseWatchLine(LONG)).toMatchObject({ role: 'user' });
  });

  it('is one window turn', () => {
    const turns = parseWindowText(`user: hello\nassistant: ${LONG}\nuser: bye`);
    expect(turns.map((t) => [t.role, t.text.length])).toEqual([
      ['user', 5],
      ['assistant', LONG.length],
      ['user', 3],
    ]);
  });

  it('keeps the turn rules: a line terminator inside the rest means no turn start', () => {
    expect(parseWatchLine('user: a\u2028b')).toEqual({ role: 'user', text: 'user: a\u2028b' });
    expect(parseWatchLine('USER :  hi')).toEqual({ role: 'user', text: 'hi' });
  });
});
