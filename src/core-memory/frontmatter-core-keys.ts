import { parseFrontmatterYaml } from '../pages/frontmatter.js';

/** The core keys `core add` / `core remove` write through to an imported file. */
export interface CoreKeyEdit {
  /** Keys to set (`always_load: true`, `core_priority: N`), in place when present. */
  set: { always_load?: true; core_priority?: number };
  /** Keys to delete. */
  remove: readonly ('always_load' | 'core_priority')[];
}

const CORE_KEYS = ['always_load', 'core_priority'] as const;
const keyLine = (key: string) => new RegExp(`^${key}[ \\t]*:`);
/** Lines after a key that still belong to its value (indented, or a top-level list item). */
const isContinuation = (line: string): boolean => /^[ \t]/.test(line) || /^-(\s|$)/.test(line);

function editYamlLines(lines: string[], edit: CoreKeyEdit): string[] {
  const out: string[] = [];
  const pending = new Map<string, string>(Object.entries(edit.set).map(([k, v]) => [k, `${k}: ${String(v)}`]));
  let skipping = false;
  for (const line of lines) {
    if (skipping && isContinuation(line)) continue;
    skipping = false;
    const key = CORE_KEYS.find((k) => keyLine(k).test(line));
    if (key === undefined) {
      out.push(line);
      continue;
    }
    skipping = true;
    const replacement = pending.get(key);
    if (replacement !== undefined && !edit.remove.includes(key)) {
      out.push(replacement);
      pending.delete(key);
    }
  }
  while (out.length > 0 && out[out.length - 1].trim() === '') out.pop();
  for (const [key, line] of pending) if (!edit.remove.includes(key as (typeof CORE_KEYS)[number])) out.push(line);
  return out;
}

/**
 * A page file with its core keys edited line by line, everything else kept byte for byte
 * (comments, quoting, line endings, a byte-order mark), so the owner's file stays theirs and a
 * later import reads the same core state. Null when the file's frontmatter cannot be edited
 * safely (unclosed, or the result would not parse to the intended values).
 */
export function editCoreKeys(markdown: string, edit: CoreKeyEdit): string | null {
  const bom = markdown.startsWith('\uFEFF') ? '\uFEFF' : '';
  const eol = markdown.includes('\r\n') ? '\r\n' : '\n';
  const lines = markdown.slice(bom.length).replace(/\r\n?/g, '\n').split('\n');
  let open = 0;
  while (open < lines.length && lines[open].trim() === '') open++;
  const hasFrontmatter = open < lines.length && lines[open].trimEnd() === '---';
  let result: string[];
  let yaml: string[];
  if (!hasFrontmatter) {
    yaml = editYamlLines([], edit);
    if (yaml.length === 0) return markdown;
    result = ['---', ...yaml, '---', ...lines];
  } else {
    let close = open + 1;
    while (close < lines.length && lines[close].trimEnd() !== '---') close++;
    if (close >= lines.length) return null;
    yaml = editYamlLines(lines.slice(open + 1, close), edit);
    result = [...lines.slice(0, open + 1), ...yaml, ...lines.slice(close)];
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = parseFrontmatterYaml(yaml.join('\n'));
  } catch {
    return null;
  }
  for (const key of edit.remove) if (Object.hasOwn(parsed, key)) return null;
  for (const [key, value] of Object.entries(edit.set)) if (parsed[key] !== value) return null;
  return bom + result.join(eol);
}
