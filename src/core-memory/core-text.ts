import { isFactRowShown, parseFactsTable, type FactRow } from '../pages/facts-table.js';
import { findFences, replaceFences } from '../pages/fences.js';

// A `## Facts` heading followed only by blank lines up to the end of the preceding text. Exactly
// that heading (case included): `## facts` or `## Facts and figures` are the owner's own text.
const FACTS_HEADING_ABOVE = /(^|\n)[ \t]*##[ \t]+Facts[ \t]*\n(?:[ \t]*\n)*[ \t]*$/;

/**
 * One remembered fact as an agent reads it: its number (what `remember --supersedes` names), the
 * claim, and only what qualifies it — kind, validity, a confidence below certain. The table's
 * ten columns would cost every session a few hundred characters of the core budget.
 */
export function factLine(r: FactRow): string {
  const notes = [r.kind || 'fact'];
  if (r.valid_from && r.valid_until) notes.push(`${r.valid_from} to ${r.valid_until}`);
  else if (r.valid_from) notes.push(`since ${r.valid_from}`);
  else if (r.valid_until) notes.push(`until ${r.valid_until}`);
  if (r.confidence && Number(r.confidence) !== 1) notes.push(`confidence ${r.confidence}`);
  return `- ${r.row === null ? '' : `#${r.row} `}${r.claim} (${notes.join(', ')})`;
}

/** A facts fence as a list of its shown rows; "" when no row is shown. */
function factsList(inner: string, today: string): string {
  return parseFactsTable(inner)
    .rows.filter((r) => isFactRowShown(r, today))
    .map(factLine)
    .join('\n');
}

/** Replaces facts fences by lists, dropping an empty list and the `## Facts` heading above it. */
function replaceFactsFences(text: string, today: string): string {
  const spans = findFences(text, 'facts');
  let out = '';
  let at = 0;
  for (const span of spans) {
    let before = text.slice(at, span.start);
    const table = factsList(span.inner, today);
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
 * fences reduced to one line per active, `world`, unexpired rows (`today` = UTC
 * `YYYY-MM-DD`), 3+ newlines collapsed to 2, trimmed. Withdrawn and private facts must not
 * reach every prompt; an empty `## Facts` heading is noise.
 */
export function renderCoreText(compiledTruth: string, today: string): string {
  const withoutTakes = replaceFences(compiledTruth, 'takes');
  return replaceFactsFences(withoutTakes, today)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
