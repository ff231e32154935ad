/**
 * What PostgreSQL cannot hold, checked before a page event is appended (one refused row would
 * fail a whole batch insert). JSONB refuses `\u0000` and unpaired UTF-16 surrogates, and TEXT
 * refuses NUL or silently replaces a lone surrogate. A file's bytes are checked for NUL and UTF-8
 * before parsing, but YAML escapes (`title: "x\0y"`, `"\ud800"`) make such characters afterwards,
 * and YAML aliases can repeat one large value many times over, so the parsed page is checked too.
 */

/** The most text one page may hold once parsed (frontmatter values repeated by aliases included). */
const MAX_PAGE_TEXT_CHARS = 32 * 1024 * 1024;

// A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag).
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(text: string, where: string): string | null {
  if (text.includes('\u0000')) return `${where} contains a NUL character (\\0), which cannot be stored`;
  if (UNPAIRED_SURROGATE.test(text)) return `${where} contains an unpaired UTF-16 surrogate (e.g. "\\ud800"), which cannot be stored`;
  return null;
}

/** Walks every string of a value (keys included), adding up its text and stopping at the first problem. */
class TextWalk {
  chars = 0;

  /** Why some string inside `value` cannot be stored, or null. `path` names `value`. */
  problem(value: unknown, path: readonly string[]): string | null {
    if (this.chars > MAX_PAGE_TEXT_CHARS) return null; // already over: the size problem is reported
    if (typeof value === 'string') {
      this.chars += value.length;
      return stringProblem(value, path.join('.'));
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = this.problem(value[i], [...path, String(i)]);
        if (problem) return problem;
      }
      return null;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        this.chars += key.length;
        const problem = stringProblem(key, `a key of ${path.join('.')}`) ?? this.problem(inner, [...path, key]);
        if (problem) return problem;
      }
    }
    return null;
  }
}

/**
 * Why a parsed page cannot be stored, naming the field (`title`, `frontmatter.summary`, …) or
 * its size, or null.
 */
export function unstorablePageProblem(page: {
  title: string;
  type: string;
  frontmatter: Record<string, unknown>;
  compiled_truth: string;
  timeline: string;
}): string | null {
  const walk = new TextWalk();
  const problem =
    walk.problem(page.title, ['title']) ??
    walk.problem(page.type, ['type']) ??
    walk.problem(page.frontmatter, ['frontmatter']) ??
    walk.problem(page.compiled_truth, ['compiled_truth']) ??
    walk.problem(page.timeline, ['timeline']);
  if (problem) return problem;
  if (walk.chars > MAX_PAGE_TEXT_CHARS) {
    return `the parsed page holds more than ${MAX_PAGE_TEXT_CHARS} characters of text, over the 32 MB limit (YAML aliases repeat values)`;
  }
  return null;
}
