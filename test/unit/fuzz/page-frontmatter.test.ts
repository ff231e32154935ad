import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_FRONTMATTER_DEPTH } from '../../../src/pages/frontmatter.js';
import { InvalidFrontmatterError } from '../../../src/pages/invalid-frontmatter-error.js';
import { parsePageMarkdown } from '../../../src/pages/markdown.js';
import { fuzzRuns, hostileText } from '../../support/fuzz.js';

/** What a page event can hold and read back unchanged: JSON values, plain objects, finite numbers. */
function isStorable(value: unknown, depth = 0): boolean {
  if (depth > MAX_FRONTMATTER_DEPTH + 1) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isStorable(v, depth + 1));
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return !Object.hasOwn(value, '__proto__') && Object.values(value).every((v) => isStorable(v, depth + 1));
}

const parse = (markdown: string): ReturnType<typeof parsePageMarkdown> | null => {
  try {
    return parsePageMarkdown(markdown);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidFrontmatterError);
    const line = (err as InvalidFrontmatterError).line;
    if (line !== null) {
      expect(Number.isInteger(line)).toBe(true);
      expect(line).toBeGreaterThanOrEqual(1);
    }
    return null;
  }
};

function expectContract(markdown: string): void {
  const page = parse(markdown);
  if (page === null) return;
  expect(isStorable(page.frontmatter)).toBe(true);
  expect(Object.hasOwn(page.frontmatter, 'title')).toBe(false);
  expect(Object.hasOwn(page.frontmatter, 'type')).toBe(false);
  for (const column of [page.title, page.type]) {
    if (column !== null) {
      expect(column).not.toBe('');
      expect(column).toBe(column.trim());
    }
  }
  expect(typeof page.compiled_truth).toBe('string');
  expect(typeof page.timeline).toBe('string');
}

/** YAML pieces people and attackers write: tags, anchors, aliases, flow collections, block scalars, odd keys. */
const key = fc.constantFrom('title', 'type', 'tags', '__proto__', 'constructor', 'a', '"q: k"', "'x'", '? [a, b]', '<<', '- ', 'k#', 'ж', '');
const value = fc.oneof(
  fc.constantFrom(
    '.inf', '-.inf', '.nan', '1e400', '-0', '0x1F', '0o17', '~', 'null', 'true', 'yes', '2026-01-01', '12:30:00', 'Re: lunch', 'x # comment',
    '!!set {x, y}', '!!binary aGVsbG8=', '!!timestamp 2001-12-14', '!!map {a: 1}', '!!seq [1]', '!!str 5', '!!int x', '!!float 1', '!custom v', '!<tag:x> v',
    '&a [*a]', '&a {k: *a}', '*a', '*missing', '&b 1', '[', '{', ']', '}', '[1, [2, [3]]]', '{a: {b: {c: d}}}', '|', '>-', '"unterminated', "'it''s'",
    '"\\u0000"', '"\\ud800"', '"\\x1b[31m"', '- a', '@x', '`x`', '%YAML 1.1', '---', '...',
  ),
  hostileText(40),
);
const yamlLine = fc.oneof(
  fc.tuple(fc.constantFrom('', '  ', '    ', '\t'), key, fc.constantFrom(': ', ':', ' : ', ':\t'), value).map((parts) => parts.join('')),
  value,
  fc.nat(MAX_FRONTMATTER_DEPTH + 10).map((n) => `deep: ${'['.repeat(n)}${']'.repeat(n)}`),
);
const document = fc
  .record({
    bom: fc.boolean(),
    blank: fc.constantFrom('', '\n', '  \n'),
    lines: fc.array(yamlLine, { maxLength: 8 }),
    close: fc.constantFrom('---', '--- ', '', '----'),
    body: hostileText(80),
    eol: fc.constantFrom('\n', '\r\n', '\r'),
  })
  .map(({ bom, blank, lines, close, body, eol }) => `${bom ? '\uFEFF' : ''}${blank}---${eol}${lines.join(eol)}${eol}${close}${eol}${body}`);

describe('page documents, whatever they hold', () => {
  it('parse into storable frontmatter and title/type columns, or fail with invalid_frontmatter only', () => {
    fc.assert(fc.property(hostileText(300), expectContract), fuzzRuns(1000));
  });

  it('with hostile YAML frontmatter: tags, aliases, odd keys, deep nesting, any line ending', () => {
    fc.assert(fc.property(document, expectContract), fuzzRuns(1500));
  });

  it('refuse values JSON would silently change, and an alias bomb, rather than store them', () => {
    for (const yaml of ['a: .inf', 'a: .nan', 'a: 1e400', 'a: !!set {x}', 'a: !!binary aGVsbG8=', 'a: !!timestamp 2001-12-14', 'a: &a [*a]', '__proto__: {x: 1}']) {
      expect(() => parsePageMarkdown(`---\n${yaml}\n---\nbody`)).toThrow(InvalidFrontmatterError);
    }
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)].join('\n');
    expect(() => parsePageMarkdown(`---\n${bomb}\n---\n`)).toThrow(InvalidFrontmatterError);
    expect(parsePageMarkdown('---\ntitle: Re: lunch\ncount: 0x1F\n---\nbody').title).toBe('Re: lunch');
  });
});
