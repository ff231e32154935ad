import { FENCE_MARKERS, findFences, replaceFences } from './fences.js';
import { parseFactsTable, serializeFactRow, type ParsedFactRow } from './facts-table.js';
import { remoteCompiledTruth } from './remote-view.js';

/** What a remote write kept of the page that it could not see. */
export type HiddenPart = 'takes' | 'private_facts' | 'core_keys';

export interface HiddenMerge {
  /** The compiled truth to save. */
  text: string;
  /** The hidden parts of the stored text that are in `text` although the caller never sent them. */
  kept: HiddenPart[];
}

const isWorldRow = (row: ParsedFactRow): boolean => row.visibility.trim().toLowerCase() === 'world';

/** The stored facts rows a remote reader never sees, in table order. */
function hiddenFactRows(stored: string): ParsedFactRow[] {
  return findFences(stored, 'facts').flatMap((span) => parseFactsTable(span.inner).rows.filter((r) => !isWorldRow(r)));
}

/**
 * The facts fences of `incoming` with the hidden rows put back into the first one (a new fence at
 * the end when there is none). The caller could not know the hidden rows' numbers, so a row of
 * its own that uses one of them is given the next free number: numbers are never reused.
 */
function mergeFacts(incoming: string, hidden: ParsedFactRow[]): string {
  const taken = new Set(hidden.map((r) => r.row).filter((n): n is number => n !== null));
  let next = Math.max(0, ...taken, ...findFences(incoming, 'facts').flatMap((s) => parseFactsTable(s.inner).rows.map((r) => r.row ?? 0))) + 1;
  const renumber = (row: ParsedFactRow): ParsedFactRow => {
    if (row.row === null || !taken.has(row.row)) return row;
    const moved = { ...row, row: next++ };
    return { ...moved, line: serializeFactRow(moved) };
  };
  const byNumber = (a: ParsedFactRow, b: ParsedFactRow): number => (a.row ?? Infinity) - (b.row ?? Infinity);
  const fence = (lines: (string | null)[]): string =>
    `${FENCE_MARKERS.facts.begin}\n${lines.filter((l): l is string => l !== null).join('\n')}\n${FENCE_MARKERS.facts.end}`;
  let placed = false;
  const merged = replaceFences(incoming, 'facts', (span) => {
    const table = parseFactsTable(span.inner);
    const own = table.rows.map(renumber);
    if (placed) return fence([table.header, table.separator, ...own.map((r) => r.line)]);
    placed = true;
    const rows = [...own, ...hidden].sort(byNumber);
    return fence([table.header ?? DEFAULT_HEADER, table.separator ?? DEFAULT_SEPARATOR, ...rows.map((r) => r.line)]);
  });
  if (placed) return merged;
  return `${merged.replace(/\s+$/, '')}\n\n${fence([DEFAULT_HEADER, DEFAULT_SEPARATOR, ...hidden.map((r) => r.line)])}`;
}

const DEFAULT_HEADER = '| # | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context |';
const DEFAULT_SEPARATOR = '|---|---|---|---|---|---|---|---|---|---|';

/**
 * Puts the stored takes fences back into `incoming`: each after the text that preceded it in the
 * stored page when `incoming` still starts with that text (as a read → edit → write keeps it),
 * else at the end. The stored takes replace any the caller sent: it never saw them, so what it
 * sent cannot be an edit of them.
 */
function mergeTakes(stored: string, incoming: string): string {
  let text = replaceFences(incoming, 'takes').replace(/\s+$/, '');
  for (const span of findFences(stored, 'takes')) {
    const fence = stored.slice(span.start, span.end).replace(/\s+$/, '');
    const before = remoteCompiledTruth(stored.slice(0, span.start)).replace(/\s+$/, '');
    const anchored = before !== '' && text.startsWith(before);
    const head = anchored ? text.slice(0, before.length) : text;
    const tail = anchored ? text.slice(before.length).replace(/^\s+/, '') : '';
    text = [head, fence, tail].filter((part) => part !== '').join('\n\n');
  }
  return text;
}

/**
 * The compiled truth a remote write saves: what the caller sent, with the parts of the stored
 * page it could not see (takes fences, facts rows that are not `world`) merged back, so a
 * read → edit → write by an untrusted caller never deletes the owner's hidden content. A write
 * that leaves the caller's view unchanged keeps the stored text as it is.
 */
export function mergeHiddenParts(stored: string, incoming: string): HiddenMerge {
  if (remoteCompiledTruth(stored) === incoming) return { text: stored, kept: [] };
  const hasTakes = findFences(stored, 'takes').length > 0;
  const hidden = hiddenFactRows(stored);
  const kept: HiddenPart[] = [...(hasTakes ? (['takes'] as const) : []), ...(hidden.length > 0 ? (['private_facts'] as const) : [])];
  let text = hasTakes ? mergeTakes(stored, incoming) : incoming;
  if (hidden.length > 0) text = mergeFacts(text, hidden);
  return { text, kept };
}
