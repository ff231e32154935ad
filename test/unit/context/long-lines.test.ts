import { describe, expect, it } from 'vitest';
import { parseWatchLine } from '../../../src/context/parse-watch-line.js';
import { parseWindowText } from '../../../src/context/parse-window.js';
import { extractCandidates } from '../../../src/context/extract.js';
import { MAX_RUN_CHARS, withoutOverlongRuns } from '../../../src/context/overlong-runs.js';
import type { Turn } from '../../../src/context/turn.js';
import { volunteer } from '../../../src/context/volunteer.js';
import { indexOf, user } from './helpers.js';

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

describe('a turn of megabytes outside Latin-1', () => {
  const index = indexOf({ 'people/bob-sample': { title: 'Bob Sample' }, 'people/zoe': { title: 'Zoe Quill' } });
  const names = (turns: Turn[]) => volunteer(turns, index, { scope: ['default'] }).map((p) => p.slug);
  const SPACES = ' '.repeat(10_000_000);

  it('is decided, names around the long run found, never a stack overflow', () => {
    expect(names([user(`Bob Sample ${LONG} Zoe Quill`)])).toEqual(['people/bob-sample', 'people/zoe']);
    expect(names([user(LONG), user('and Zoe Quill')])).toEqual(['people/zoe']);
    expect(names([user(`ж Bob Sample${SPACES}Zoe Quill`)])).toEqual(['people/bob-sample', 'people/zoe']);
  });

  it('reads nothing inside a run too long to hold a name, and keeps every offset', () => {
    const run = `${'ж'.repeat(MAX_RUN_CHARS)}/Bob`;
    expect(withoutOverlongRuns(`a ${run} b`)).toBe(`a ${'\u0000'.repeat(run.length)} b`);
    expect(extractCandidates(run.slice(4)).map((c) => c.display)).toContain('Bob');
    expect(extractCandidates(run)).toEqual([]);
    expect(withoutOverlongRuns(`a${SPACES}b`)).toBe(`a ${'\u0000'.repeat(SPACES.length - 2)} b`);
    const short = `Bob Sample ${'ж'.repeat(MAX_RUN_CHARS)}`;
    expect(withoutOverlongRuns(short)).toBe(short);
  });
});
