import { FENCE_MARKERS, findFences } from './fences.js';
import {
  FACTS_TABLE_HEADER,
  FACTS_TABLE_SEPARATOR,
  parseFactsTable,
  serializeFactRow,
  serializeFactsTable,
  type FactRow,
  type ParsedFactRow,
} from './facts-table.js';

/** Every row of every facts fence of a compiled truth, in text order. */
export function readFactRows(compiledTruth: string): ParsedFactRow[] {
  return findFences(compiledTruth, 'facts').flatMap((span) => parseFactsTable(span.inner).rows);
}

/** Next row number: one past the highest ever written, so numbers are never reused. */
export function nextFactRowNumber(compiledTruth: string): number {
  return readFactRows(compiledTruth).reduce((max, r) => Math.max(max, r.row ?? 0), 0) + 1;
}

/** A complete facts fence (markers included) holding `rows`. */
export function renderFactsFence(rows: readonly FactRow[]): string {
  const { begin, end } = FENCE_MARKERS.facts;
  return `${begin}\n${serializeFactsTable(rows)}\n${end}`;
}

/**
 * Appends a row (numbered by `nextFactRowNumber`) to the first facts fence, or creates
 * `## Facts` and a fence at the end of the compiled truth when there is none.
 */
export function appendFactRow(compiledTruth: string, fields: Omit<FactRow, 'row'>): { compiled_truth: string; row: FactRow } {
  const row: FactRow = { ...fields, row: nextFactRowNumber(compiledTruth) };
  const fence = findFences(compiledTruth, 'facts')[0];
  if (!fence) {
    const before = compiledTruth.trimEnd();
    const section = `## Facts\n\n${renderFactsFence([row])}`;
    return { compiled_truth: before === '' ? section : `${before}\n\n${section}`, row };
  }
  const table = parseFactsTable(fence.inner);
  const head = table.header === null ? `${FACTS_TABLE_HEADER}\n${FACTS_TABLE_SEPARATOR}\n` : '';
  const innerBody = fence.inner.replace(/\s+$/, '');
  const newInner = `${innerBody === '' ? '' : `${innerBody}\n`}${head}${serializeFactRow(row)}\n`;
  const { begin, end } = FENCE_MARKERS.facts;
  const innerStart = fence.start + begin.length;
  const rebuilt = compiledTruth.slice(0, innerStart) + (newInner.startsWith('\n') ? '' : '\n') + newInner + end;
  return { compiled_truth: rebuilt + compiledTruth.slice(fence.end), row };
}

/** Rewrites the row numbered `rowNumber` with `update`; null when no such row exists. */
export function updateFactRow(
  compiledTruth: string,
  rowNumber: number,
  update: (row: FactRow) => FactRow,
): { compiled_truth: string; before: FactRow; after: FactRow } | null {
  for (const fence of findFences(compiledTruth, 'facts')) {
    const found = parseFactsTable(fence.inner).rows.find((r) => r.row === rowNumber);
    if (!found) continue;
    const { line, ...before } = found;
    const after = update(before);
    const at = fence.inner.indexOf(line);
    const innerStart = fence.start + FENCE_MARKERS.facts.begin.length;
    const lineStart = innerStart + at;
    const text = compiledTruth.slice(0, lineStart) + serializeFactRow(after) + compiledTruth.slice(lineStart + line.length);
    return { compiled_truth: text, before, after };
  }
  return null;
}

/**
 * `forget`: strikes the claim, sets `valid_until` to today and records the reason in the
 * context (`forgotten: <reason>`, appended as `<old> | forgotten: <reason>`).
 */
export function forgetFactRow(row: FactRow, reason: string, today: string): FactRow {
  const note = `forgotten: ${reason}`;
  return { ...row, active: false, valid_until: today, context: row.context === '' ? note : `${row.context} | ${note}` };
}

/** `supersedes`: strikes the old claim with context `superseded by #<row>`. */
export function supersedeFactRow(row: FactRow, byRow: number): FactRow {
  return { ...row, active: false, context: `superseded by #${byRow}` };
}
