import { parseDocument } from 'yaml';
import { InvalidFrontmatterError } from './invalid-frontmatter-error.js';

export interface FrontmatterSplit {
  /** YAML text between the `---` lines, or null when the page has no frontmatter. */
  yaml: string | null;
  /** 1-based line (in the LF-normalised document) of the first YAML line. */
  yamlFirstLine: number;
  /** Everything after the closing `---` line (the whole document without frontmatter). */
  body: string;
}

const isBlank = (line: string): boolean => line.trim() === '';
const isDelimiter = (line: string): boolean => line.trimEnd() === '---';

/**
 * Separates frontmatter from body. CRLF becomes LF; blank lines may precede the opening
 * `---`. An opening `---` without a closing one is refused rather than guessed at, since
 * reading it as a horizontal rule would silently turn intended metadata into text.
 */
export function splitFrontmatter(markdown: string): FrontmatterSplit {
  // Editors on some platforms prepend a byte-order mark; it must not hide the frontmatter.
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const lines = text.split('\n');
  let open = 0;
  while (open < lines.length && isBlank(lines[open])) open++;
  if (open >= lines.length || !isDelimiter(lines[open])) return { yaml: null, yamlFirstLine: 0, body: text };
  let close = open + 1;
  while (close < lines.length && !isDelimiter(lines[close])) close++;
  if (close >= lines.length) {
    throw new InvalidFrontmatterError(`frontmatter opened at line ${open + 1} is not closed by a --- line`, open + 1);
  }
  return {
    yaml: lines.slice(open + 1, close).join('\n'),
    yamlFirstLine: open + 2,
    body: lines.slice(close + 1).join('\n'),
  };
}

// A top-level `key: value` line; the key holds no `:` and does not start a list item,
// comment, complex key or quoted key.
const KEY_LINE = /^([^\s#'"\-?:[{][^:]*?):[ \t]+(.*)$/;
// Values YAML reads as something other than a plain scalar are left alone.
const NON_PLAIN_START = /^["'[{|>&*!%@`#]/;

/**
 * Quotes the plain value of a top-level `key: value` line when it contains `": "` or ends
 * with `:` (`title: Re: lunch`), which YAML would otherwise reject as a nested mapping.
 * A trailing ` # comment` stays a comment.
 */
export function quoteAmbiguousValues(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const m = KEY_LINE.exec(line);
      if (!m) return line;
      const [, key, rest] = m;
      if (NON_PLAIN_START.test(rest)) return line;
      const hash = rest.search(/\s#/);
      const value = (hash < 0 ? rest : rest.slice(0, hash)).trimEnd();
      const comment = hash < 0 ? '' : rest.slice(hash);
      if (!value.includes(': ') && !value.endsWith(':')) return line;
      return `${key}: ${JSON.stringify(value)}${comment}`;
    })
    .join('\n');
}

/** Deeper than any real frontmatter; a bound keeps every later walk of the value off the stack limit. */
export const MAX_FRONTMATTER_DEPTH = 64;

/**
 * Why a parsed value cannot be page data, or null: an alias that contains itself (`x: &a [*a]`
 * makes a value that never ends), nesting beyond the bound, a `__proto__` key (JavaScript
 * objects cannot hold it as data: it would vanish, or change what other keys read), or a value
 * JSON cannot hold (`.inf`, `.nan`, and explicit tags such as `!!set`, `!!binary`, `!!timestamp`,
 * which would be stored as null, `{}`, a byte list or a different string).
 */
function unstorableValue(value: unknown, ancestors: unknown[] = []): string | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return `the number ${String(value)} cannot be stored`;
  if (value === null || typeof value !== 'object') return null;
  const proto: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
    return `a value of type ${value.constructor?.name ?? 'unknown'} (an explicit YAML tag) cannot be stored`;
  }
  if (ancestors.includes(value)) return 'an alias refers to a value that contains it';
  if (ancestors.length >= MAX_FRONTMATTER_DEPTH) return `values nest deeper than ${MAX_FRONTMATTER_DEPTH} levels`;
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return 'the key "__proto__" is not allowed';
  const inner = [...ancestors, value];
  for (const child of Object.values(value)) {
    const problem = unstorableValue(child, inner);
    if (problem !== null) return problem;
  }
  return null;
}

const describe = (value: unknown): string =>
  Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;

/**
 * Parses frontmatter YAML with the YAML 1.2 core schema (only true/false spellings are
 * booleans; dates stay strings). The result must be a mapping; an empty block is `{}`.
 * `firstLine` maps YAML line numbers back to document lines for the error message.
 */
export function parseFrontmatterYaml(yaml: string, firstLine = 1): Record<string, unknown> {
  const doc = parseDocument(quoteAmbiguousValues(yaml), { schema: 'core' });
  const error = doc.errors[0];
  if (error) {
    const yamlLine = error.linePos?.[0]?.line;
    const line = yamlLine === undefined ? null : firstLine + yamlLine - 1;
    const problem = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '').trim();
    throw new InvalidFrontmatterError(
      `invalid YAML in frontmatter${line === null ? '' : ` at line ${line}`}: ${problem}`,
      line,
    );
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (error) {
    // e.g. an alias bomb exceeding the alias limit
    throw new InvalidFrontmatterError(`invalid YAML in frontmatter: ${(error as Error).message}`, firstLine);
  }
  const unstorable = unstorableValue(value);
  if (unstorable !== null) throw new InvalidFrontmatterError(`invalid YAML in frontmatter: ${unstorable}`, firstLine);
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Map) {
    throw new InvalidFrontmatterError(
      `frontmatter must be a mapping of keys to values, got ${describe(value)} (line ${firstLine})`,
      firstLine,
    );
  }
  return value as Record<string, unknown>;
}
