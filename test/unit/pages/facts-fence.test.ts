import { describe, expect, it } from 'vitest';
import {
  appendFactRow,
  forgetFactRow,
  nextFactRowNumber,
  readFactRows,
  renderFactsFence,
  supersedeFactRow,
  updateFactRow,
} from '../../../src/pages/facts-fence.js';
import { FACTS_TABLE_HEADER, FACTS_TABLE_SEPARATOR, type FactRow } from '../../../src/pages/facts-table.js';
import { FENCE_MARKERS } from '../../../src/pages/fences.js';

const { begin, end } = FENCE_MARKERS.facts;
const fields = (claim: string): Omit<FactRow, 'row'> => ({
  claim,
  active: true,
  kind: 'fact',
  confidence: '1.0',
  visibility: 'world',
  notability: 'medium',
  valid_from: '2026-04-07',
  valid_until: '',
  source: 'told me',
  context: '',
});

describe('appendFactRow', () => {
  it('creates ## Facts and a fence at the end when missing', () => {
    const out = appendFactRow('Intro text\n', fields('Likes tea'));
    expect(out.row.row).toBe(1);
    expect(out.compiled_truth).toBe(
      `Intro text\n\n## Facts\n\n${begin}\n${FACTS_TABLE_HEADER}\n${FACTS_TABLE_SEPARATOR}\n| 1 | Likes tea | fact | 1.0 | world | medium | 2026-04-07 |  | told me |  |\n${end}`,
    );
  });

  it('creates the section alone on an empty page', () => {
    expect(appendFactRow('', fields('x')).compiled_truth.startsWith('## Facts\n\n')).toBe(true);
  });

  it('appends to an existing fence, numbering past the highest row', () => {
    const start = `A\n\n## Facts\n\n${renderFactsFence([{ ...fields('one'), row: 1 }, { ...fields('gone'), row: 4, active: false }])}\n\nTail`;
    const out = appendFactRow(start, fields('two'));
    expect(out.row.row).toBe(5);
    expect(readFactRows(out.compiled_truth).map((r) => [r.row, r.claim])).toEqual([
      [1, 'one'],
      [4, 'gone'],
      [5, 'two'],
    ]);
    expect(out.compiled_truth.endsWith(`${end}\n\nTail`)).toBe(true);
  });

  it('adds a header to a fence without a table', () => {
    const out = appendFactRow(`${begin}\n${end}`, fields('x'));
    expect(out.compiled_truth).toBe(
      `${begin}\n${FACTS_TABLE_HEADER}\n${FACTS_TABLE_SEPARATOR}\n| 1 | x | fact | 1.0 | world | medium | 2026-04-07 |  | told me |  |\n${end}`,
    );
  });
});

describe('updateFactRow, forgetFactRow, supersedeFactRow', () => {
  const page = appendFactRow(appendFactRow('P', fields('first')).compiled_truth, fields('second')).compiled_truth;

  it('forgets a row with the default reason', () => {
    const out = updateFactRow(page, 1, (r) => forgetFactRow(r, 'user request', '2026-05-01'));
    expect(out?.after).toMatchObject({ active: false, valid_until: '2026-05-01', context: 'forgotten: user request' });
    const rows = readFactRows(out!.compiled_truth);
    expect(rows[0]).toMatchObject({ claim: 'first', active: false });
    expect(rows[1]).toMatchObject({ claim: 'second', active: true });
  });

  it('appends to an existing context', () => {
    const r = forgetFactRow({ ...fields('x'), row: 3, context: 'superseded by #4' }, 'wrong', '2026-05-01');
    expect(r.context).toBe('superseded by #4 | forgotten: wrong');
  });

  it('supersedes', () => {
    expect(supersedeFactRow({ ...fields('x'), row: 1 }, 9)).toMatchObject({ active: false, context: 'superseded by #9' });
  });

  it('returns null for an unknown row', () => {
    expect(updateFactRow(page, 42, (r) => r)).toBeNull();
  });

  it('counts rows across fences for the next number', () => {
    expect(nextFactRowNumber(page)).toBe(3);
    expect(nextFactRowNumber('no fences')).toBe(1);
  });
});
