import { describe, expect, it } from 'vitest';
import { remoteCompiledTruth } from '../../../src/pages/remote-view.js';

const TAKES = '<!--- gbrain:takes:begin -->\n- owner: a belief\n<!--- gbrain:takes:end -->';
const FACTS_BEGIN = '<!--- gbrain:facts:begin -->';
const FACTS_END = '<!--- gbrain:facts:end -->';
const HEADER = '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |';
const SEPARATOR = '|---|---|---|---|---|---|---|---|---|---|';
const WORLD = '| 1 | Public claim | fact | 0.9 | world | medium | 2024-01-01 |  | owner |  |';
const PRIVATE = '| 2 | Private claim | fact | 0.9 | private | medium | 2024-01-01 |  | owner |  |';

describe('remoteCompiledTruth', () => {
  it('removes a takes fence between paragraphs, leaving one blank line', () => {
    expect(remoteCompiledTruth(`Before.\n\n${TAKES}\n\nAfter.`)).toBe('Before.\n\nAfter.');
  });

  it('removes takes fences at the start, at the end and back to back without stray blank lines', () => {
    expect(remoteCompiledTruth(`${TAKES}\n\nBody.`)).toBe('Body.');
    expect(remoteCompiledTruth(`Body.\n\n${TAKES}\n`)).toBe('Body.');
    expect(remoteCompiledTruth(`A.\n\n${TAKES}\n\n${TAKES}\n\nB.`)).toBe('A.\n\nB.');
    expect(remoteCompiledTruth(TAKES)).toBe('');
  });

  it('removes an unterminated takes fence to the end', () => {
    expect(remoteCompiledTruth('Kept.\n\n<!--- gbrain:takes:begin -->\n- owner: secret')).toBe('Kept.');
  });

  it('keeps the indentation of the line after a removed fence', () => {
    expect(remoteCompiledTruth(`Intro:\n\n${TAKES}\n\n    code line\n`)).toBe('Intro:\n\n    code line\n');
  });

  it('reduces a facts fence to its world rows, markers kept', () => {
    const text = `Facts:\n\n${FACTS_BEGIN}\n${HEADER}\n${SEPARATOR}\n${WORLD}\n${PRIVATE}\n${FACTS_END}\n\nEnd.`;
    expect(remoteCompiledTruth(text)).toBe(`Facts:\n\n${FACTS_BEGIN}\n${HEADER}\n${SEPARATOR}\n${WORLD}\n${FACTS_END}\n\nEnd.`);
  });

  it('leaves text without fences unchanged, blank lines included', () => {
    expect(remoteCompiledTruth('A.\n\n\n\nB.')).toBe('A.\n\n\n\nB.');
  });
});
