import { describe, expect, it } from 'vitest';
import {
  FACTS_TABLE_HEADER,
  FACTS_TABLE_SEPARATOR,
  escapeCell,
  isFactExpired,
  isFactRowShown,
  parseFactsTable,
  serializeFactRow,
  serializeFactsTable,
  splitTableCells,
  utcDay,
  type FactRow,
} from '../../../src/pages/facts-table.js';

const row = (over: Partial<FactRow> = {}): FactRow => ({
  row: 1,
  claim: 'Prefers tea',
  active: true,
  kind: 'preference',
  confidence: '1.0',
  visibility: 'world',
  notability: 'medium',
  valid_from: '2026-01-01',
  valid_until: '',
  source: 'chat',
  context: '',
  ...over,
});

describe('splitTableCells / escapeCell', () => {
  it('splits on unescaped pipes and unescapes \\|', () => {
    expect(splitTableCells('| 1 | a \\| b | c |')).toEqual(['1', 'a | b', 'c']);
    expect(splitTableCells('1 | x')).toEqual(['1', 'x']);
    expect(splitTableCells('| a | b \\|')).toEqual(['a', 'b |']);
  });

  it('escapes pipes and line breaks', () => {
    expect(escapeCell('a|b\nc')).toBe('a\\|b c');
  });
});

describe('parseFactsTable', () => {
  const inner = [
    '',
    FACTS_TABLE_HEADER,
    FACTS_TABLE_SEPARATOR,
    '| 1 | Likes \\| pipes | fact | 0.9 | world | high | 2026-01-01 |  | chat | |',
    '| 2 | ~~Old claim~~ | belief | 1.0 | private | low | 2026-01-01 | 2026-02-01 | chat | forgotten: user request |',
    '| x | odd | fact | 1.0 | world | medium |  |  |  | |',
    'not a table line',
    '',
  ].join('\n');

  it('reads header, separator and rows by column name', () => {
    const table = parseFactsTable(inner);
    expect(table.header).toBe(FACTS_TABLE_HEADER);
    expect(table.separator).toBe(FACTS_TABLE_SEPARATOR);
    expect(table.rows).toHaveLength(3);
    expect(table.rows[0]).toMatchObject({ row: 1, claim: 'Likes | pipes', active: true, confidence: '0.9', notability: 'high' });
    expect(table.rows[1]).toMatchObject({
      row: 2,
      claim: 'Old claim',
      active: false,
      visibility: 'private',
      valid_until: '2026-02-01',
      context: 'forgotten: user request',
    });
    expect(table.rows[2].row).toBeNull();
    expect(table.rows[0].line).toBe('| 1 | Likes \\| pipes | fact | 0.9 | world | high | 2026-01-01 |  | chat | |');
  });

  it('maps columns by header name when they are reordered', () => {
    const table = parseFactsTable('| claim | # | kind | confidence | visibility | notability | valid_from | valid_until | source | context |\n|-|-|-|-|-|-|-|-|-|-|\n| c | 7 | fact | 1 | world | m | | | s | |');
    expect(table.rows[0]).toMatchObject({ row: 7, claim: 'c', source: 's' });
  });

  it('a struck claim is inactive whatever the context says', () => {
    const t = parseFactsTable(`${FACTS_TABLE_HEADER}\n${FACTS_TABLE_SEPARATOR}\n| 3 | ~~x~~ | fact | 1 | world | m | | | s | superseded by #4 |`);
    expect(t.rows[0].active).toBe(false);
    expect(parseFactsTable(`${FACTS_TABLE_HEADER}\n| 3 | ~~ | fact |`).rows[0].active).toBe(true);
  });

  it('reads a table without header as data rows in canonical column order', () => {
    const t = parseFactsTable('| 1 | secret | fact | 1.0 | private | low | | | s | |\n| 2 | open | fact | 1.0 | world | low | | | s | |');
    expect(t.header).toBeNull();
    expect(t.rows.map((r) => [r.row, r.visibility])).toEqual([
      [1, 'private'],
      [2, 'world'],
    ]);
    expect(parseFactsTable('| # | claim | kind |\n| 1 | x | fact |').header).toBe('| # | claim | kind |');
  });

  it('handles an empty fence', () => {
    expect(parseFactsTable('\n')).toEqual({ header: null, separator: null, rows: [] });
  });
});

describe('serializeFactRow / serializeFactsTable', () => {
  it('round-trips through parse', () => {
    const rows = [row(), row({ row: 2, claim: 'a | b', active: false, context: 'old | forgotten: x' })];
    const parsed = parseFactsTable(serializeFactsTable(rows)).rows.map(({ line: _line, ...r }) => r);
    expect(parsed).toEqual(rows);
  });

  it('writes struck claims and escaped cells', () => {
    expect(serializeFactRow(row({ active: false, claim: 'x|y' }))).toBe(
      '| 1 | ~~x\\|y~~ | preference | 1.0 | world | medium | 2026-01-01 |  | chat |  |',
    );
  });
});

describe('expiry and visibility', () => {
  it('expires only when valid_until is before today', () => {
    expect(isFactExpired({ valid_until: '' }, '2026-03-01')).toBe(false);
    expect(isFactExpired({ valid_until: '2026-03-01' }, '2026-03-01')).toBe(false);
    expect(isFactExpired({ valid_until: '2026-02-28' }, '2026-03-01')).toBe(true);
    expect(isFactExpired({ valid_until: '2026-02-28T23:59:59Z' }, '2026-03-01')).toBe(true);
    expect(isFactExpired({ valid_until: 'someday' }, '2026-03-01')).toBe(false);
  });

  it('shows active, world, unexpired rows only', () => {
    expect(isFactRowShown(row(), '2026-03-01')).toBe(true);
    expect(isFactRowShown(row({ active: false }), '2026-03-01')).toBe(false);
    expect(isFactRowShown(row({ visibility: 'private' }), '2026-03-01')).toBe(false);
    expect(isFactRowShown(row({ valid_until: '2026-01-01' }), '2026-03-01')).toBe(false);
  });

  it('utcDay formats a UTC date', () => {
    expect(utcDay(new Date('2026-04-07T23:30:00-05:00'))).toBe('2026-04-08');
  });
});
