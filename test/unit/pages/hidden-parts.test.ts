import { describe, expect, it } from 'vitest';
import { mergeHiddenParts } from '../../../src/pages/hidden-parts.js';
import { remoteCompiledTruth } from '../../../src/pages/remote-view.js';

const TAKES = '<!--- gbrain:takes:begin -->\n- owner: I doubt the plan.\n<!--- gbrain:takes:end -->';
const HEAD = '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |\n|---|---|---|---|---|---|---|---|---|---|';
const row = (n: number, claim: string, visibility: string): string =>
  `| ${n} | ${claim} | fact | 1.0 | ${visibility} | medium | 2026-01-01 |  | owner |  |`;
const facts = (...rows: string[]): string => `<!--- gbrain:facts:begin -->\n${HEAD}\n${rows.join('\n')}\n<!--- gbrain:facts:end -->`;

const stored = ['Intro.', TAKES, 'Middle.', facts(row(1, 'home address', 'private'), row(2, 'works at Acme', 'world'))].join('\n\n');

describe('mergeHiddenParts', () => {
  it('keeps the stored text when the caller sends back exactly what it could see', () => {
    expect(mergeHiddenParts(stored, remoteCompiledTruth(stored))).toEqual({ text: stored, kept: [] });
  });

  it('puts takes and private facts back around an edit of the visible text, in place', () => {
    const edited = remoteCompiledTruth(stored).replace('Middle.', 'Middle, edited.');
    const merged = mergeHiddenParts(stored, edited);
    expect(merged.kept).toEqual(['takes', 'private_facts']);
    expect(merged.text).toBe(stored.replace('Middle.', 'Middle, edited.'));
    expect(remoteCompiledTruth(merged.text)).toBe(edited);
  });

  it('keeps the hidden parts when the caller drops the whole body', () => {
    const merged = mergeHiddenParts(stored, 'Replaced.');
    expect(merged.text).toContain(TAKES);
    expect(merged.text).toContain(row(1, 'home address', 'private'));
    expect(merged.text).not.toContain('works at Acme');
    expect(merged.text.startsWith('Replaced.')).toBe(true);
  });

  it('gives a caller row that reuses a hidden row number the next free number', () => {
    const incoming = `Intro.\n\n${facts(row(1, 'guessed row', 'world'), row(2, 'works at Acme', 'world'))}`;
    const merged = mergeHiddenParts(stored, incoming);
    expect(merged.text).toContain(row(1, 'home address', 'private'));
    expect(merged.text).toContain('| 3 | guessed row |');
    expect(merged.text.match(/\| 1 \|/g)).toHaveLength(1);
  });

  it('replaces takes the caller sent with the stored ones, which it never saw', () => {
    const incoming = `Intro.\n\n<!--- gbrain:takes:begin -->\n- caller: my take\n<!--- gbrain:takes:end -->`;
    const merged = mergeHiddenParts(stored, incoming);
    expect(merged.text).toContain('I doubt the plan');
    expect(merged.text).not.toContain('my take');
  });

  it('changes nothing on a page without hidden parts', () => {
    expect(mergeHiddenParts('Plain.', 'New.')).toEqual({ text: 'New.', kept: [] });
  });
});
