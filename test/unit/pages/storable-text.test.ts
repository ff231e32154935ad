import { describe, expect, it } from 'vitest';
import { unstorablePageProblem } from '../../../src/pages/storable-text.js';

const page = { title: 'T', type: 'note', frontmatter: {}, compiled_truth: 'body', timeline: '' };
const frontmatterProblem = (frontmatter: Record<string, unknown>): string | null => unstorablePageProblem({ ...page, frontmatter });

describe('unstorablePageProblem inside frontmatter', () => {
  it('accepts ordinary text, paired surrogates (emoji) and nested values', () => {
    expect(frontmatterProblem({ a: ['x', { b: 'emoji 😀' }], n: 1, t: true, z: null })).toBeNull();
  });

  it('names the place of a NUL character, in values and in keys', () => {
    expect(frontmatterProblem({ tags: ['ok', 'a\u0000b'] })).toBe(
      'frontmatter.tags.1 contains a NUL character (\\0), which cannot be stored',
    );
    expect(frontmatterProblem({ 'k\u0000': 1 })).toBe('a key of frontmatter contains a NUL character (\\0), which cannot be stored');
  });

  it('refuses unpaired high and low surrogates', () => {
    const message = 'frontmatter.s contains an unpaired UTF-16 surrogate (e.g. "\\ud800"), which cannot be stored';
    expect(frontmatterProblem({ s: 'a\ud800' })).toBe(message);
    expect(frontmatterProblem({ s: '\udc00b' })).toBe(message);
    expect(frontmatterProblem({ s: '\udc00\ud800' })).toBe(message);
  });
});

describe('unstorablePageProblem', () => {
  it('checks every stored field and names it', () => {
    expect(unstorablePageProblem(page)).toBeNull();
    expect(unstorablePageProblem({ ...page, title: 'x\u0000y' })).toBe('title contains a NUL character (\\0), which cannot be stored');
    expect(unstorablePageProblem({ ...page, timeline: '\ud83d' })).toMatch(/^timeline contains an unpaired/);
    expect(unstorablePageProblem({ ...page, frontmatter: { summary: 'a\u0000' } })).toMatch(/^frontmatter\.summary contains a NUL/);
  });

  it('refuses a page whose text, as parsed, passes 32 MB (one value repeated by YAML aliases)', () => {
    const mb = 'x'.repeat(1024 * 1024);
    expect(unstorablePageProblem({ ...page, frontmatter: { refs: Array(31).fill(mb) } })).toBeNull();
    expect(unstorablePageProblem({ ...page, frontmatter: { refs: Array(33).fill(mb) } })).toBe(
      'the parsed page holds more than 33554432 characters of text, over the 32 MB limit (YAML aliases repeat values)',
    );
  });
});
