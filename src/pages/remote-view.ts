import { FENCE_MARKERS, findFences, replaceFences } from './fences.js';
import { parseFactsTable } from './facts-table.js';

/**
 * Removes every takes fence, markers included, and closes the gap it leaves: the text before
 * and after is joined by one blank line (as paragraphs are), not by the blank lines that
 * surrounded the fence.
 */
function removeTakes(text: string): string {
  const spans = findFences(text, 'takes');
  if (spans.length === 0) return text;
  const kept: string[] = [];
  let at = 0;
  for (const span of spans) {
    kept.push(text.slice(at, span.start));
    at = span.end;
  }
  kept.push(text.slice(at));
  return kept.reduce((joined, next) => {
    const left = joined.replace(/\s+$/, '');
    const right = next.replace(/^(?:[ \t]*(?:\n|$))+/, '');
    if (left === '') return right;
    if (right === '') return left;
    return `${left}\n\n${right}`;
  });
}

/**
 * What an untrusted reader sees of compiled truth: takes fences removed, facts fences reduced
 * to their `world` rows (markers kept so the structure stays recognisable).
 */
export function remoteCompiledTruth(compiledTruth: string): string {
  return replaceFences(removeTakes(compiledTruth), 'facts', (span) => {
    const table = parseFactsTable(span.inner);
    const rows = table.rows.filter((r) => r.visibility.trim().toLowerCase() === 'world').map((r) => r.line);
    const lines = [table.header, table.separator, ...rows].filter((l): l is string => l !== null);
    return `${FENCE_MARKERS.facts.begin}\n${lines.join('\n')}\n${FENCE_MARKERS.facts.end}`;
  });
}
