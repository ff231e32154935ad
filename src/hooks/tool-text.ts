/**
 * What of a tool call is worth reading for names: the prose of its input and output. Tool
 * output is often code, JSON or long listings, where a page title shows up only as an
 * identifier or a file name; those must not push pages, and a huge output must not become a
 * huge turn. Pure.
 */

/** The text of one tool turn is cut here (the head is kept). */
export const MAX_TOOL_TEXT_CHARS = 8_000;
/** Prose lines read from one tool call at most. */
export const MAX_TOOL_LINES = 200;

/** Tools that only carry what the agent itself wrote (file edits, its own todo list): nothing new is read. */
const WRITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'TodoWrite', 'apply_patch', 'ExitPlanMode']);

/** Fields that hold locations, ids, markers or commands the agent wrote, never prose read from the world. */
const SKIPPED_KEYS = new Set([
  'command', 'file_path', 'filePath', 'path', 'paths', 'url', 'uri', 'type', 'id', 'tool_use_id', 'mimeType', 'mime_type', 'encoding',
  'stderr', 'old_string', 'new_string', 'content_hash', 'sha', 'cwd', 'pattern', 'glob', 'timeout', 'description',
]);

const CODE_LINE =
  /[{};<>=]|=>|\(\s*\)|\w\(|^\s*(import|export|from|def|class|function|const|let|var|return|if|elif|else|for|while|switch|case|package|public|private|protected|static|async|await|#include|#define|using|namespace|fn|impl|struct|enum|interface|type)\b|^\s*[@#$]|^\s*(\/\/|\/\*|\*|--|<!--)/;
/** A word with inner capitals or underscores (`aliceExample`, `Alice_Example`, `ALICE_EXAMPLE`): an identifier. */
const IDENTIFIER = /\b[a-z]+[A-Z]\w*|\b\w+_\w+\b/;

/** A line a reader would read as a sentence or a name: words separated by spaces, no code or path shape. */
function isProse(line: string): boolean {
  const t = line.trim();
  if (t.length < 3) return false;
  // A bare token (a file name, a path, a hash, a number) is a listing entry, not prose.
  if (!/\s/.test(t)) return false;
  if (CODE_LINE.test(t) || IDENTIFIER.test(t)) return false;
  // Mostly letters and spaces: a line of paths, numbers and punctuation is data.
  const letters = (t.match(/[\p{L}\s]/gu) ?? []).length;
  return letters / t.length >= 0.7;
}

/** Strings of a value that may hold prose: JSON text is opened, code fences and locations are left out. */
function collect(value: unknown, out: string[], depth = 0): void {
  if (out.length >= MAX_TOOL_LINES * 2 || depth > 8) return;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && trimmed.length < 1_000_000) {
      try {
        collect(JSON.parse(trimmed) as unknown, out, depth + 1);
        return;
      } catch {
        // not JSON: read as text
      }
    }
    out.push(trimmed.replace(/```[\s\S]*?(```|$)/g, '\n'));
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, out, depth + 1);
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!SKIPPED_KEYS.has(k)) collect(v, out, depth + 1);
  }
}

/**
 * The tool turn's text: prose lines of the input, then of the response, each line once, at most
 * 200 lines and 8,000 characters. "" when the tool only writes, or nothing reads as prose.
 */
export function toolTurnText(toolName: string, input: unknown, response: unknown): string {
  if (WRITING_TOOLS.has(toolName)) return '';
  const strings: string[] = [];
  collect(input, strings);
  collect(response, strings);
  const seen = new Set<string>();
  const lines: string[] = [];
  let chars = 0;
  for (const s of strings) {
    for (const raw of s.split('\n')) {
      const line = raw.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '').replace(/\s+/g, ' ').trim();
      if (!isProse(line) || seen.has(line)) continue;
      if (lines.length >= MAX_TOOL_LINES || chars + line.length + 1 > MAX_TOOL_TEXT_CHARS) return lines.join('\n');
      seen.add(line);
      lines.push(line);
      chars += line.length + 1;
    }
  }
  return lines.join('\n');
}
