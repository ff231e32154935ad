import { describe, expect, it } from 'vitest';
import { InvalidFrontmatterError } from '../../../src/pages/invalid-frontmatter-error.js';
import { parsePageMarkdown, titleFromBody } from '../../../src/pages/markdown.js';
import { quoteAmbiguousValues, splitFrontmatter } from '../../../src/pages/frontmatter.js';

function frontmatterError(markdown: string): InvalidFrontmatterError {
  try {
    parsePageMarkdown(markdown);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFrontmatterError);
    return error as InvalidFrontmatterError;
  }
  throw new Error('expected InvalidFrontmatterError');
}

describe('parsePageMarkdown — frontmatter', () => {
  it('returns title and type separately and keeps every other key with its YAML type', () => {
    const page = parsePageMarkdown(
      '---\ntitle: Working preferences\ntype: note\nalways_load: true\ncore_priority: 10\naliases: [a, b]\nsummary: short\n---\n\nBody',
    );
    expect(page).toEqual({
      title: 'Working preferences',
      type: 'note',
      frontmatter: { always_load: true, core_priority: 10, aliases: ['a', 'b'], summary: 'short' },
      compiled_truth: 'Body',
      timeline: '',
    });
  });

  it('uses the YAML 1.2 core schema: only true/false spellings are booleans', () => {
    const page = parsePageMarkdown(
      '---\na: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: yes\nh: on\ni: 1\nj: "true"\nk: no\nl: 2024-01-01\nm: 1.5\nn: ~\n---\n',
    );
    expect(page.frontmatter).toEqual({
      a: true,
      b: true,
      c: true,
      d: false,
      e: false,
      f: false,
      g: 'yes',
      h: 'on',
      i: 1,
      j: 'true',
      k: 'no',
      l: '2024-01-01',
      m: 1.5,
      n: null,
    });
  });

  it('quotes a top-level value containing ": " or ending with ":"', () => {
    expect(parsePageMarkdown('---\ntitle: Re: lunch\n---\n').title).toBe('Re: lunch');
    expect(parsePageMarkdown('---\nsummary: Note:\n---\n').frontmatter).toEqual({ summary: 'Note:' });
    expect(parsePageMarkdown('---\nsummary: a: b # a comment: here\n---\n').frontmatter).toEqual({ summary: 'a: b' });
  });

  it('leaves quoted, flow and nested values alone when pre-quoting', () => {
    const yaml = 'a: "x: y"\nb: {c: d}\nnested:\n  k: v: w\nurl: http://x.test/a:b\n- item: x';
    expect(quoteAmbiguousValues(yaml)).toBe(yaml);
    expect(quoteAmbiguousValues('t: a "b": c')).toBe('t: "a \\"b\\": c"');
  });

  it('accepts leading blank lines and CRLF', () => {
    const page = parsePageMarkdown('\r\n  \r\n---\r\ntitle: T\r\nalways_load: true\r\n---\r\nLine 1\r\nLine 2\r\n');
    expect(page.title).toBe('T');
    expect(page.frontmatter).toEqual({ always_load: true });
    expect(page.compiled_truth).toBe('Line 1\nLine 2');
  });

  it('ignores a leading byte-order mark', () => {
    expect(parsePageMarkdown('\uFEFF---\ntitle: T\n---\nx')).toMatchObject({ title: 'T', compiled_truth: 'x' });
  });

  it('refuses an alias bomb', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'];
    expect(frontmatterError(`---\n${bomb.join('\n')}\n---\n`).code).toBe('invalid_frontmatter');
  });

  it('treats a document without frontmatter as body only', () => {
    expect(parsePageMarkdown('# Hello\n\ntext')).toEqual({
      title: null,
      type: null,
      frontmatter: {},
      compiled_truth: '# Hello\n\ntext',
      timeline: '',
    });
  });

  it('parses an empty document and an empty frontmatter block', () => {
    expect(parsePageMarkdown('')).toEqual({ title: null, type: null, frontmatter: {}, compiled_truth: '', timeline: '' });
    expect(parsePageMarkdown('---\n---\nx').frontmatter).toEqual({});
    expect(parsePageMarkdown('---\n# only a comment\n---\nx').frontmatter).toEqual({});
  });

  it('returns title/type only when they are non-empty text, and never keeps them in frontmatter', () => {
    const page = parsePageMarkdown('---\ntitle: []\ntype: ""\n---\n');
    expect(page.title).toBeNull();
    expect(page.type).toBeNull();
    expect(page.frontmatter).toEqual({});
    expect(parsePageMarkdown('---\ntitle: "  Spaced  "\n---\n').title).toBe('Spaced');
  });

  it('a title YAML reads as a number or boolean is that text, not dropped', () => {
    expect(parsePageMarkdown('---\ntitle: 123\n---\n')).toMatchObject({ title: '123', frontmatter: {} });
    expect(parsePageMarkdown('---\ntitle: 2024\ntype: true\n---\n')).toMatchObject({ title: '2024', type: 'true' });
  });

  it('splits the body after the frontmatter', () => {
    const page = parsePageMarkdown('---\ntitle: X\n---\nA\n\n<!-- timeline -->\n\n- 2026-04-07 met');
    expect(page.compiled_truth).toBe('A');
    expect(page.timeline).toBe('- 2026-04-07 met');
  });
});

describe('parsePageMarkdown — invalid frontmatter', () => {
  it('names the YAML problem and the document line', () => {
    const error = frontmatterError('---\ntitle: ok\nlist: [a, b\n---\nbody');
    expect(error.code).toBe('invalid_frontmatter');
    expect(error.message).toMatch(/^invalid YAML in frontmatter at line \d+: /);
    expect(error.line).toBeGreaterThanOrEqual(3);
    expect(error.toEnvelope()).toEqual({ error: 'invalid_frontmatter', message: error.message, line: error.line });
  });

  it('counts leading blank lines in the reported line', () => {
    const error = frontmatterError('\n\n---\na: 1\na: 2\n---\n');
    expect(error.message).toBe('invalid YAML in frontmatter at line 5: Map keys must be unique');
    expect(error.line).toBe(5);
  });

  it('refuses frontmatter that is not a mapping', () => {
    expect(frontmatterError('---\n- a\n- b\n---\n').message).toMatch(/must be a mapping.*got a list/);
    expect(frontmatterError('---\njust text\n---\n').message).toMatch(/must be a mapping.*got a string/);
  });

  it('refuses an alias that contains itself, instead of overflowing the stack later', () => {
    expect(frontmatterError('---\nx: &a [*a]\n---\nbody\n').message).toBe('invalid YAML in frontmatter: an alias refers to a value that contains it');
    expect(frontmatterError('---\nm: &m {self: *m}\n---\n').message).toBe('invalid YAML in frontmatter: an alias refers to a value that contains it');
    // The same value twice (not inside itself) is fine.
    expect(parsePageMarkdown('---\na: &v [1]\nb: *v\n---\n').frontmatter).toEqual({ a: [1], b: [1] });
  });

  it('refuses nesting deeper than any frontmatter needs', () => {
    expect(frontmatterError(`---\nx: ${'['.repeat(70)}${']'.repeat(70)}\n---\n`).message).toBe('invalid YAML in frontmatter: values nest deeper than 64 levels');
    expect(parsePageMarkdown(`---\nx: ${'['.repeat(10)}${']'.repeat(10)}\n---\n`).frontmatter).toHaveProperty('x');
  });

  it('refuses a __proto__ key (it would vanish from the stored page), at any depth', () => {
    expect(frontmatterError('---\n__proto__:\n  always_load: true\ntitle: P\n---\n').message).toBe('invalid YAML in frontmatter: the key "__proto__" is not allowed');
    expect(frontmatterError('---\nmeta:\n  __proto__: 1\n---\n').message).toBe('invalid YAML in frontmatter: the key "__proto__" is not allowed');
  });

  it('refuses an unclosed frontmatter block', () => {
    const error = frontmatterError('\n---\ntitle: x\nbody');
    expect(error.message).toBe('frontmatter opened at line 2 is not closed by a --- line');
  });
});

describe('splitFrontmatter', () => {
  it('reports where the YAML starts', () => {
    expect(splitFrontmatter('\n---\na: 1\n---\nb')).toEqual({ yaml: 'a: 1', yamlFirstLine: 3, body: 'b' });
    expect(splitFrontmatter('x\n---\na: 1\n---')).toEqual({ yaml: null, yamlFirstLine: 0, body: 'x\n---\na: 1\n---' });
  });
});

describe('titleFromBody', () => {
  it('returns the first H1 outside code fences', () => {
    expect(titleFromBody('intro\n```\n# not this\n```\n## Sub\n# Real Title  \n# Second')).toBe('Real Title');
  });

  it('strips a closing # sequence and ignores empty headings', () => {
    expect(titleFromBody('#\n# Title ##')).toBe('Title');
  });

  it('returns null without an H1', () => {
    expect(titleFromBody('#NoSpace\n## Two\ntext')).toBeNull();
    expect(titleFromBody('')).toBeNull();
  });
});
