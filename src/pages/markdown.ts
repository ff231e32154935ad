import { splitBody } from './body-split.js';
import { codeFenceMask } from './code-fences.js';
import { parseFrontmatterYaml, splitFrontmatter } from './frontmatter.js';

export interface ParsedPageMarkdown {
  /** Frontmatter `title` when it is non-empty text (trimmed; a number or boolean as YAML reads it: `123` → "123"), else null. */
  title: string | null;
  /** Frontmatter `type`, the same way. */
  type: string | null;
  /** Every other frontmatter key, with its YAML type. */
  frontmatter: Record<string, unknown>;
  compiled_truth: string;
  timeline: string;
}

/** `title: 123` is the text 123 to whoever wrote it: YAML reading it as a number must not drop it. */
const nonEmptyString = (value: unknown): string | null => {
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  return text.trim() === '' ? null : text.trim();
};

/**
 * Parses a page document: optional YAML frontmatter, then a body split into compiled truth
 * and timeline. `title` and `type` become columns and leave the frontmatter, whatever
 * their YAML type. Throws `InvalidFrontmatterError` on unparseable or non-mapping YAML.
 */
export function parsePageMarkdown(markdown: string): ParsedPageMarkdown {
  const split = splitFrontmatter(markdown);
  const data = split.yaml === null ? {} : parseFrontmatterYaml(split.yaml, split.yamlFirstLine);
  const { title, type, ...frontmatter } = data;
  return {
    title: nonEmptyString(title),
    type: nonEmptyString(type),
    frontmatter,
    ...splitBody(split.body),
  };
}

const H1 = /^#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

/** The text of the first `# ` heading outside fenced code blocks, or null. */
export function titleFromBody(compiledTruth: string): string | null {
  const lines = compiledTruth.replace(/\r\n?/g, '\n').split('\n');
  const inCode = codeFenceMask(lines);
  for (let i = 0; i < lines.length; i++) {
    if (inCode[i]) continue;
    const m = H1.exec(lines[i]);
    if (m && m[1].trim() !== '') return m[1].trim();
  }
  return null;
}
