import { expect } from 'vitest';
import type { CorePageRow } from '../../../src/core-memory/core-page.js';
import { CoreMarkOwnerOnlyError } from '../../../src/core-memory/errors.js';
import type { FactRow } from '../../../src/pages/facts-table.js';

/** A page row for core-memory tests; core (always_load: true) unless the frontmatter says otherwise. */
export function corePage(
  slug: string,
  compiled_truth = '',
  frontmatter: Record<string, unknown> = { always_load: true },
  extra: Partial<CorePageRow> = {},
): CorePageRow {
  return { source_id: 'default', slug, title: slug.split('/').pop()!, frontmatter, compiled_truth, ...extra };
}

export const TODAY = '2026-04-07';

/** An active `world` fact row of a facts fence, valid since 2026-01-01. */
export const factRow = (row: number, claim: string, over: Partial<FactRow> = {}): FactRow => ({
  row,
  claim,
  active: true,
  kind: 'fact',
  confidence: '1.0',
  visibility: 'world',
  notability: 'medium',
  valid_from: '2026-01-01',
  valid_until: '',
  source: 'chat',
  context: '',
  ...over,
});

/** The owner-only refusal `fn` throws (fails the test when it throws none or another error). */
export function refusal(fn: () => unknown): CoreMarkOwnerOnlyError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreMarkOwnerOnlyError);
    return error as CoreMarkOwnerOnlyError;
  }
  throw new Error('expected a refusal');
}
