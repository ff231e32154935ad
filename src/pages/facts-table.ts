/**
 * The markdown table inside a facts fence:
 * `# | claim | kind | confidence | visibility | notability | valid_from | valid_until | source | context`.
 * A `|` inside a cell is written `\|`; a claim wrapped in `~~…~~` marks a withdrawn row.
 */

const FACT_COLUMNS = [
  '#',
  'claim',
  'kind',
  'confidence',
  'visibility',
  'notability',
  'valid_from',
  'valid_until',
  'source',
  'context',
] as const;
export type FactColumn = (typeof FACT_COLUMNS)[number];

export const FACT_KINDS = ['event', 'preference', 'commitment', 'belief', 'fact'] as const;
export type FactKind = (typeof FACT_KINDS)[number];
export const FACT_VISIBILITIES = ['private', 'world'] as const;
export type FactVisibility = (typeof FACT_VISIBILITIES)[number];

export const FACTS_TABLE_HEADER = `| ${FACT_COLUMNS.join(' | ')} |`;
export const FACTS_TABLE_SEPARATOR = `|${FACT_COLUMNS.map(() => '---').join('|')}|`;

export interface FactRow {
  /** The `#` cell; null when it is not a whole number. */
  row: number | null;
  /** Claim text, unescaped, without the `~~` strike marks. */
  claim: string;
  /** False when the claim is struck through (superseded or forgotten). */
  active: boolean;
  kind: string;
  confidence: string;
  visibility: string;
  notability: string;
  valid_from: string;
  valid_until: string;
  source: string;
  context: string;
}

export interface ParsedFactRow extends FactRow {
  /** The row's line as written (trimmed), for verbatim rendering. */
  line: string;
}

export interface ParsedFactsTable {
  header: string | null;
  separator: string | null;
  rows: ParsedFactRow[];
}

const SEPARATOR = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/;

/** Cells of one table line, `\|` unescaped and each cell trimmed. */
export function splitTableCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.replace(/\\\|/g, '|').trim());
}

/** Makes text safe for one table cell: `|` → `\|`, line breaks → spaces. */
export function escapeCell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function columnIndexes(header: string | null): Record<FactColumn, number> {
  const named = header === null ? [] : splitTableCells(header).map((c) => c.toLowerCase());
  const known = FACT_COLUMNS.every((c) => named.includes(c));
  const out = {} as Record<FactColumn, number>;
  FACT_COLUMNS.forEach((column, i) => (out[column] = known ? named.indexOf(column) : i));
  return out;
}

function rowFromCells(cells: string[], at: Record<FactColumn, number>, line: string): ParsedFactRow {
  const cell = (column: FactColumn): string => cells[at[column]] ?? '';
  const rawClaim = cell('claim');
  const struck = rawClaim.length >= 4 && rawClaim.startsWith('~~') && rawClaim.endsWith('~~');
  const number = cell('#');
  return {
    row: /^\d+$/.test(number) ? Number(number) : null,
    claim: struck ? rawClaim.slice(2, -2) : rawClaim,
    active: !struck,
    kind: cell('kind'),
    confidence: cell('confidence'),
    visibility: cell('visibility'),
    notability: cell('notability'),
    valid_from: cell('valid_from'),
    valid_until: cell('valid_until'),
    source: cell('source'),
    context: cell('context'),
    line,
  };
}

/** Parses the table lines (those starting with `|`) of a facts fence's inner text. */
export function parseFactsTable(inner: string): ParsedFactsTable {
  const lines = inner
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|'));
  if (lines.length === 0) return { header: null, separator: null, rows: [] };
  const separator = lines.length > 1 && SEPARATOR.test(lines[1]) ? lines[1] : null;
  // Without a separator the first line is a header only if it names the claim column;
  // otherwise it is a data row (never shown as a header, which would bypass visibility).
  const isHeader = separator !== null || splitTableCells(lines[0]).some((c) => c.toLowerCase() === 'claim');
  const header = isHeader ? lines[0] : null;
  const at = columnIndexes(header);
  const rows = lines.slice(separator !== null ? 2 : isHeader ? 1 : 0).map((line) => rowFromCells(splitTableCells(line), at, line));
  return { header, separator, rows };
}

/** One row line in the canonical column order. */
export function serializeFactRow(row: FactRow): string {
  const claim = escapeCell(row.claim);
  const cells = [
    row.row === null ? '' : String(row.row),
    row.active ? claim : `~~${claim}~~`,
    row.kind,
    row.confidence,
    row.visibility,
    row.notability,
    row.valid_from,
    row.valid_until,
    row.source,
    row.context,
  ];
  return `| ${cells.map((c, i) => (i === 1 ? c : escapeCell(c))).join(' | ')} |`;
}

/** A whole table (header, separator, rows), without fence markers. */
export function serializeFactsTable(rows: readonly FactRow[]): string {
  return [FACTS_TABLE_HEADER, FACTS_TABLE_SEPARATOR, ...rows.map(serializeFactRow)].join('\n');
}

/** `YYYY-MM-DD` of a date in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Expired when `valid_until` starts with a date before `today` (`YYYY-MM-DD`, UTC).
 * An empty or unreadable `valid_until` never expires.
 */
export function isFactExpired(row: Pick<FactRow, 'valid_until'>, today: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(row.valid_until.trim());
  return m !== null && m[1] < today;
}

/**
 * Rows that reach rendered text: active, `world` (exactly: cells are trimmed, but `World` is not
 * one of the two visibilities, and anything unrecognised stays out) and not expired.
 */
export function isFactRowShown(row: FactRow, today: string): boolean {
  return row.active && row.visibility === 'world' && !isFactExpired(row, today);
}
