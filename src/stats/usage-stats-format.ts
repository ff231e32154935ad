import { STATS_DIMENSIONS, type UsageStatsResult } from './usage-stats-query.js';

export type StatsFormat = 'table' | 'json' | 'csv';
export const STATS_FORMATS: readonly StatsFormat[] = ['table', 'json', 'csv'];

const COUNT_COLUMNS = ['volunteered', 'used_approximate', 'used_attributed', 'precision_approximate', 'precision_attributed'] as const;
const HEADERS: Record<string, string> = {
  day: 'day', match_arm: 'arm', channel: 'channel', source_id: 'source',
  volunteered: 'volunteered', used_approximate: 'used (approx)', used_attributed: 'used (session)',
  precision_approximate: 'precision (approx)', precision_attributed: 'precision (session)',
};

const dimensionColumns = (r: UsageStatsResult): string[] => r.by.map((d) => STATS_DIMENSIONS[d]);

/** An aligned table: dimensions left-aligned, figures right-aligned, then a total line. */
export function renderStatsTable(r: UsageStatsResult): string {
  const dims = dimensionColumns(r);
  const columns = [...dims, ...COUNT_COLUMNS];
  const cells = r.rows.map((row) => columns.map((c) => String(row[c])));
  const total = [...dims.map((_, i) => (i === 0 ? 'total' : '')), ...COUNT_COLUMNS.map((c) => String(r.total[c]))];
  const all = [columns.map((c) => HEADERS[c]!), ...cells, total];
  const widths = columns.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (row: string[]): string =>
    row.map((cell, i) => (i < dims.length ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const range = `${r.since ?? 'the first day'} to ${r.until ?? 'today'}`;
  const head = `volunteered-context usage, ${range} (approx: the page was read later by anyone; session: read later in the same session)`;
  if (r.rows.length === 0) return `${head}\n  (no usage statistics in the range)\n`;
  return `${head}\n${all.map(line).join('\n')}\n`;
}

const csvCell = (v: string | number): string => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180: a header line, then one line per row (no total: a spreadsheet sums it). */
export function renderStatsCsv(r: UsageStatsResult): string {
  const columns = [...dimensionColumns(r), ...COUNT_COLUMNS];
  return [columns, ...r.rows.map((row) => columns.map((c) => row[c]!))].map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
