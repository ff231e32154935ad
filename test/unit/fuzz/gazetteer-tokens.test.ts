import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../src/context/gazetteer-tokens.js';
import { fuzzRuns, hostileText } from '../../support/fuzz.js';

/** The token as one regular expression: exact on short text, and what the tokenizer must equal. */
const TOKEN = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*['’]?/gu;

const spans = (text: string): Array<[number, number]> => {
  const t = tokenize(text);
  return Array.from({ length: t.count }, (_, k) => [t.start[k]!, t.end[k]!]);
};
const expected = (text: string): Array<[number, number]> =>
  [...text.matchAll(TOKEN)].flatMap((m) => (m[0].replace(/['’][sSſ]?$/u, '') === '' ? [] : [[m.index, m.index + m[0].length] as [number, number]]));

describe('gazetteer tokens of any text', () => {
  it('are the tokens of the one-expression definition', () => {
    fc.assert(
      fc.property(hostileText(120), (text) => {
        expect(spans(text)).toEqual(expected(text));
      }),
      fuzzRuns(500),
    );
  });

  it('keep long runs and apostrophe chains whole, around the piece limits', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'ж', '😀', '\u0301', '7'), minLength: 1, maxLength: 5000 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.constantFrom("'", '’'), (words, apostrophe) => {
        const text = ` ${words.join(apostrophe)}${apostrophe} x`;
        expect(spans(text)).toEqual(expected(text));
      }),
      fuzzRuns(50),
    );
  });

  it('never overflow the stack on megabytes of letters outside Latin-1, nor of apostrophe chains', () => {
    expect(spans(`a ${'ж'.repeat(5_000_000)} b`)).toEqual([
      [0, 1],
      [2, 5_000_002],
      [5_000_003, 5_000_004],
    ]);
    expect(tokenize("ж'".repeat(2_000_000)).count).toBe(1);
  });
});
