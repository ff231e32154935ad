import { FACTS_TABLE_HEADER, FACTS_TABLE_SEPARATOR, isFactRowShown, parseFactsTable } from '../pages/facts-table.js';
import { findFences, replaceFences } from '../pages/fences.js';

// A `## Facts` heading followed only by blank lines up to the end of the preceding text. Exactly
// that heading (case included): `## facts` or `## Facts and figures` are the owner's own text.
const FACTS_HEADING_ABOVE = /(^|\n)[ \t]*##[ \t]+Facts[ \t]*\n(?:[ \t]*\n)*[ \t]*$/;

/** A facts fence as a plain table of its shown rows; "" when no row is shown. */
function factsTable(inner: string, today: string): string {
  const table = parseFactsTable(inner);
  const rows = table.rows.filter((r) => isFactRowShown(r, today)).map((r) => r.line);
  if (rows.length === 0) return '';
  // A fence without a header line gets the canonical one, so the table still reads as one.
  const head = table.header === null ? [FACTS_TABLE_HEADER, FACTS_TABLE_SEPARATOR] : [table.header, ...(table.separator === null ? [] : [table.separator])];
  return [...head, ...rows].join('\n');
}

/** Replaces facts fences by tables, dropping an empty table and the `## Facts` heading above it. */
function replaceFactsFences(text: string, today: string): string {
  const spans = findFences(text, 'facts');
  let out = '';
  let at = 0;
  for (const span of spans) {
    let before = text.slice(at, span.start);
    const table = factsTable(span.inner, today);
    if (table === '') {
      const heading = FACTS_HEADING_ABOVE.exec(before);
      if (heading) before = before.slice(0, heading.index + heading[1].length);
    }
    out += before + table;
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * A page's core text: compiled truth without takes fences, facts
 * fences reduced to plain tables of active, `world`, unexpired rows (`today` = UTC
 * `YYYY-MM-DD`), 3+ newlines collapsed to 2, trimmed. Withdrawn and private facts must not
 * reach every prompt; an empty `## Facts` heading is noise.
 */
export function renderCoreText(compiledTruth: string, today: string): string {
  const withoutTakes = replaceFences(compiledTruth, 'takes');
  return replaceFactsFences(withoutTakes, today)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
