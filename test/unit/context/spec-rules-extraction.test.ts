import { describe, expect, it } from 'vitest';
import { extractCandidates, extractCjk, type Candidate } from '../../../src/context/extract.js';

// A CJK gram is skipped when its key is an emitted strong key or an earlier
// weak key. The spec's strong pass cannot emit a key made only of CJK characters (handles are
// ASCII, capitalised tokens start with an upper-case letter and no upper-case letter
// NFKC-normalises to a CJK character), so the strong side of the rule is shown through the
// shadow set the strong keys seed and through an extra pass that emits a strong CJK name.

const grams = (out: Candidate[]): string[] => out.filter((c) => c.weak).map((c) => c.display);

describe('CJK grams are shadowed by emitted strong keys', () => {
  it('the CJK pass skips a gram whose key is in the shadow set, and only that gram', () => {
    const out: Candidate[] = [];
    extractCjk('田中さんの会議', new Set(['田中']), out);
    expect(grams(out)).not.toContain('田中');
    expect(grams(out).slice(0, 4)).toEqual(['田中さん', '田中さ', '中さんの', '中さん']);
  });

  it('the shadow set the later passes get holds exactly the emitted strong keys', () => {
    let seen: string[] = [];
    extractCandidates('Alice Example met 田中 today. Monday', (_text, taken) => {
      seen = [...taken];
    });
    expect(seen).toEqual(['alice example']);
  });

  it('a strong CJK candidate emitted before the CJK pass shadows its gram', () => {
    const strongTanaka = (_text: string, taken: Set<string>, out: Candidate[]): void => {
      out.push({ display: '田中', query: '田中', key: '田中', weak: false });
      taken.add('田中');
    };
    const out = extractCandidates('田中 と 会議', strongTanaka);
    expect(out.map((c) => `${c.weak ? 'w' : 's'}:${c.display}`)).toEqual(['s:田中', 'w:会議']);
    expect(grams(extractCandidates('田中 と 会議'))).toEqual(['田中', '会議']);
  });
});
