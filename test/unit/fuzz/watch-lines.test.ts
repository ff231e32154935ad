import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWatchLine } from '../../../src/context/parse-watch-line.js';
import { parseWindowText, turnStart } from '../../../src/context/parse-window.js';
import { storableLine } from '../../../src/context/storable-line.js';
import { fuzzRuns, hostileText } from '../../support/fuzz.js';

const ROLES = new Set(['user', 'assistant']);
/** A line as `watch` reads it: a role prefix in any case and spacing, or none, then hostile text. */
const watchLine = fc.oneof(
  hostileText(200),
  fc.tuple(fc.constantFrom('user', 'USER', 'Assistant', 'assistant'), fc.constantFrom(':', ' :', ':  ', '\t:\t'), hostileText(200)).map(([r, c, t]) => r + c + t),
);

describe('watch stdin lines, whatever they hold', () => {
  it('become one storable, trimmed, non-empty turn of a known role, or are skipped', () => {
    fc.assert(
      fc.property(watchLine, (line) => {
        const turn = parseWatchLine(storableLine(line));
        if (turn === null) return;
        expect(ROLES.has(turn.role)).toBe(true);
        expect(turn.text).not.toBe('');
        expect(turn.text).toBe(turn.text.trim());
        expect(turn.text).not.toContain('\u0000');
        expect(line.replace(/\u0000/g, '\uFFFD')).toContain(turn.text);
      }),
      fuzzRuns(1000),
    );
  });

  it('are skipped one by one: a bad line never changes how the next one reads', () => {
    fc.assert(
      fc.property(fc.array(watchLine, { maxLength: 8 }), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }), (noise, word) => {
        const good = `assistant: ${word.replace(/\s/g, '')}x`;
        const turns = [...noise, good].map((l) => parseWatchLine(storableLine(l)));
        expect(turns.at(-1)).toEqual({ role: 'assistant', text: good.slice('assistant: '.length) });
      }),
      fuzzRuns(300),
    );
  });

  it('keep their role prefix only when the rest is a single line', () => {
    fc.assert(
      fc.property(watchLine, (line) => {
        const start = turnStart(line);
        if (start === null) return;
        expect(ROLES.has(start.role)).toBe(true);
        expect(start.text).not.toMatch(/[\n\r\u2028\u2029]/u);
        expect(line.endsWith(start.text)).toBe(true);
      }),
      fuzzRuns(1000),
    );
  });

  it('survive megabytes in one line without a stack overflow', () => {
    expect(parseWatchLine(`user: ${'ж '.repeat(2_000_000)}`)?.text.length).toBe(4_000_000 - 1);
    expect(parseWatchLine(storableLine('\u0000'.repeat(1_000_000)))).toEqual({ role: 'user', text: '\uFFFD'.repeat(1_000_000) });
  });
});

describe('window text, whatever it holds', () => {
  it('parses into trimmed, non-empty turns made only of its own text', () => {
    fc.assert(
      fc.property(fc.array(watchLine, { maxLength: 10 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const input = lines.join(eol);
        const turns = parseWindowText(input);
        for (const t of turns) {
          expect(ROLES.has(t.role)).toBe(true);
          expect(t.text).not.toBe('');
          expect(t.text).toBe(t.text.trim());
        }
        // A turn starts on a line: never more turns than lines.
        expect(turns.length).toBeLessThanOrEqual(input.split(/\r?\n/u).length);
      }),
      fuzzRuns(500),
    );
  });
});
