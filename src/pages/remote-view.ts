import { FENCE_MARKERS, replaceFences } from './fences.js';
import { parseFactsTable } from './facts-table.js';

/**
 * What an untrusted reader sees of compiled truth: takes fences removed, facts fences reduced
 * to their `world` rows (markers kept so the structure stays recognisable).
 */
export function remoteCompiledTruth(compiledTruth: string): string {
  const withoutTakes = replaceFences(compiledTruth, 'takes');
  return replaceFences(withoutTakes, 'facts', (span) => {
    const table = parseFactsTable(span.inner);
    const rows = table.rows.filter((r) => r.visibility.trim().toLowerCase() === 'world').map((r) => r.line);
    const lines = [table.header, table.separator, ...rows].filter((l): l is string => l !== null);
    return `${FENCE_MARKERS.facts.begin}\n${lines.join('\n')}\n${FENCE_MARKERS.facts.end}`;
  });
}
