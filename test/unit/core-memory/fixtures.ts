import type { CorePageRow } from '../../../src/core-memory/core-page.js';

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
