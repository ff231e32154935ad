import { describe, expect, it } from 'vitest';
import { extractExamples, outputMatches, stripComment } from '../../support/doc-examples.js';

const md = [
  '# Guide',
  '<!-- example: setup=sample-brain,transcript-feed -->',
  '',
  '```bash',
  'npm install',
  'npx brainstream import ~/notes/brain   # every page',
  "printf 'a # not a comment\\n' \\",
  '  | npx brainstream volunteer-context',
  'npx brainstream serve &',
  'openclaw plugins install -l /path/to/brainstream',
  '```',
  '',
  '<!-- example: skip reason="needs a cluster" -->',
  '```sh',
  'brainstream lag',
  '```',
  '',
  '```console',
  '$ brainstream config get memory.core.max_chars',
  '4000',
  '$ brainstream config set memory.core.max_chars 1',
  'brainstream: invalid_config_value: bad',
  '[exit 1]',
  '```',
  '',
  '```',
  '$ brainstream doctor',
  '```',
].join('\n');

describe('doc example extraction', () => {
  const examples = extractExamples('guide.md', md);

  it('finds the tagged shell blocks and reads their annotations', () => {
    expect(examples.map((e) => [e.line, e.lang, e.setup, e.skip])).toEqual([
      [4, 'bash', ['sample-brain', 'transcript-feed'], null],
      [14, 'sh', [], 'needs a cluster'],
      [18, 'console', [], null],
    ]);
  });

  it('keeps only brainstream commands, joins continuations and marks background ones', () => {
    expect(examples[0]!.commands).toEqual([
      { line: 6, text: 'brainstream import ~/notes/brain', output: null, exitCode: 0, background: false },
      { line: 7, text: "printf 'a # not a comment\\n' | brainstream volunteer-context", output: null, exitCode: 0, background: false },
      { line: 9, text: 'brainstream serve', output: null, exitCode: 0, background: true },
    ]);
  });

  it('reads console output and the shown exit code', () => {
    expect(examples[2]!.commands.map((c) => [c.text, c.output, c.exitCode])).toEqual([
      ['brainstream config get memory.core.max_chars', ['4000'], 0],
      ['brainstream config set memory.core.max_chars 1', ['brainstream: invalid_config_value: bad'], 1],
    ]);
  });

  it('strips comments only outside quotes', () => {
    expect(stripComment(`echo '#x' "#y" a#b # c`)).toBe(`echo '#x' "#y" a#b`);
  });

  it('compares output exactly but for trailing spaces, with … standing for any lines', () => {
    expect(outputMatches(['a', 'b  '], 'a  \nb\n\n')).toBe(true);
    expect(outputMatches(['a', 'b'], 'a\nc\n')).toBe(false);
    expect(outputMatches(['a', '…', 'z'], 'a\nb\nc\nz\n')).toBe(true);
    expect(outputMatches(['a', '…', 'z'], 'a\nz\n')).toBe(true);
    expect(outputMatches(['a', '…', 'z'], 'a\nb\n')).toBe(false);
  });

  it('reads … inside a line as any text of that one line, and the rest of the line literally', () => {
    expect(outputMatches(['wrote …/project/.hermes.md (1+1 chars)'], 'wrote /tmp/x/project/.hermes.md (1+1 chars)\n')).toBe(true);
    expect(outputMatches(['"valid_until":"…"}'], '"valid_until":""}')).toBe(true);
    expect(outputMatches(['wrote …/.hermes.md'], 'wrote /tmp/x/AGENTS.md')).toBe(false);
    expect(outputMatches(['(1+1 chars)'], '(11 chars)')).toBe(false);
    expect(outputMatches(['a … z'], 'a b\nc z')).toBe(false);
  });
});
