import { describe, expect, it } from 'vitest';
import { unnestRows } from '../../../src/db/unnest-rows.js';

describe('unnestRows', () => {
  it('turns rows into one array per column, in column order, with missing values as null', () => {
    const input = unnestRows(['text', 'int', 'timestamptz'], [['a', 1, '2026-03-01T00:00:00.000Z'], ['b', undefined, null]]);
    expect(input.sql).toBe('unnest($1::text[], $2::int[], $3::timestamptz[])');
    expect(input.params).toEqual([['a', 'b'], [1, null], ['2026-03-01T00:00:00.000Z', null]]);
  });

  it('numbers its parameters after the offset, and keeps the same text for any number of rows', () => {
    expect(unnestRows(['text'], [['x']], 2).sql).toBe('unnest($3::text[])');
    expect(unnestRows(['text', 'int'], []).sql).toBe(unnestRows(['text', 'int'], [['x', 1], ['y', 2]]).sql);
    expect(unnestRows(['text', 'int'], []).params).toEqual([[], []]);
  });
});
