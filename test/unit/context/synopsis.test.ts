import { describe, expect, it } from 'vitest';
import { clipSynopsis, synopsisOf } from '../../../src/context/synopsis.js';
import { FENCE_MARKERS } from '../../../src/pages/fences.js';

const T = FENCE_MARKERS.takes;
const F = FENCE_MARKERS.facts;
const syn = (compiled_truth: string, frontmatter: Record<string, unknown> = {}): string => synopsisOf({ frontmatter, compiled_truth });

describe('synopsis', () => {
  it('frontmatter summary wins when a non-blank string; whitespace collapsed', () => {
    expect(syn('Body text.', { summary: '  Founder of\n  Windrose.  ' })).toBe('Founder of Windrose.');
    expect(syn('Body text. More.', { summary: '   ' })).toBe('Body text.');
    expect(syn('Body text. More.', { summary: 42 })).toBe('Body text.');
  });

  it('empty compiled truth gives ""', () => {
    expect(syn('')).toBe('');
    expect(syn('# Only a heading\n<!-- note -->')).toBe('');
  });

  it('first prose line: headings and comments skipped, text before the first sentence end', () => {
    expect(syn('# Alice\n\n<!-- x -->\n  Alice is an early founder. She invests.\nNext')).toBe('Alice is an early founder.');
    expect(syn('Really?! Yes. No')).toBe('Really?!');
    expect(syn('Ends with no punctuation\nsecond')).toBe('Ends with no punctuation');
    expect(syn('Version 1.2 shipped. Then')).toBe('Version 1.2 shipped.');
  });

  it('Mr. Smith… → Mr.', () => {
    expect(syn('Mr. Smith runs the fund.')).toBe('Mr.');
  });

  it('never contains takes or facts fence content, terminated or not', () => {
    const facts = `${F.begin}\n| # | claim | kind |\n|---|---|---|\n| 1 | secret | fact |\n${F.end}`;
    expect(syn(`${facts}\nPublic line. More`)).toBe('Public line.');
    expect(syn(`${T.begin}\nI think Bob is great.\n${T.end}\nVisible.`)).toBe('Visible.');
    expect(syn(`Intro line.\n${T.begin}\nsecret take`)).toBe('Intro line.');
    expect(syn(`${T.begin}\nsecret take with no end\nmore secret`)).toBe('');
    expect(syn(`${F.begin}\n| 1 | secret |`)).toBe('');
  });

  it('removes the first --- block and the whitespace after it', () => {
    expect(syn('---\nstatus: draft\n---\n\nReal text. Here')).toBe('Real text.');
    expect(syn('Lead. More\n---\nx\n---\n')).toBe('Lead.');
  });

  it('clips to 160: 159 characters right-trimmed + …', () => {
    const long = `${'a'.repeat(150)} ${'b'.repeat(30)}`;
    expect(syn(long)).toBe(`${'a'.repeat(150)} ${'b'.repeat(8)}…`);
    expect(clipSynopsis(`${'x'.repeat(158)}  yyyy`)).toBe(`${'x'.repeat(158)}…`);
    expect(clipSynopsis('x'.repeat(160))).toBe('x'.repeat(160));
    expect(syn('', { summary: 'y'.repeat(161) })).toHaveLength(160);
  });
});
