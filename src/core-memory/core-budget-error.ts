import type { CoreSection } from './core-section.js';
import { coreRef } from './core-ref.js';
import { CoreBudgetExceededError, type LargestCorePage } from './errors.js';
import { MAX_CORE_PAGES } from './core-page.js';

export const MAX_CHARS_CEILING = 6000;
const LARGEST_LISTED = 5;

export interface BudgetRefusalInput {
  reason: 'max_chars' | 'max_pages';
  current: { chars: number; count: number };
  next: { chars: number; count: number };
  maxChars: number;
  /** Brain-wide sections after the write. */
  sections: readonly CoreSection[];
  /** Sources the caller can read; null = all (owner). */
  readable: readonly string[] | null;
}

/**
 * Up to 5 renderable core pages the caller can see, largest first (sizes after the write).
 * Totals may include pages the caller cannot see; this list never names them.
 */
export function largestVisiblePages(sections: readonly CoreSection[], readable: readonly string[] | null): LargestCorePage[] {
  return sections
    .filter((s) => readable === null || readable.includes(s.source_id))
    .map((s, order) => ({ s, order }))
    .sort((a, b) => b.s.chars - a.s.chars || a.order - b.order)
    .slice(0, LARGEST_LISTED)
    .map(({ s }) => ({ source_id: s.source_id, slug: s.slug, chars: s.chars }));
}

/** The fixes named by a refusal; raising the budget is offered only while it can go higher. */
export function budgetSuggestion(reason: 'max_chars' | 'max_pages', maxChars: number): string {
  const status = '(see brainstream core status --json)';
  if (reason === 'max_pages') {
    return `Merge pages or move detail into linked non-core pages, or ask the user to run: brainstream core remove --source <id> <slug> for a page that no longer needs to be core ${status}`;
  }
  if (maxChars >= MAX_CHARS_CEILING) return `Move detail into a linked non-core page and keep a one-line pointer ${status}`;
  return `Move detail into a linked non-core page and keep a one-line pointer, or ask the user to run: brainstream config set memory.core.max_chars ${MAX_CHARS_CEILING} ${status}`;
}

/** Builds the `core_budget_exceeded` refusal with every envelope field (§4). */
export function budgetExceededError(input: BudgetRefusalInput): CoreBudgetExceededError {
  const largest = largestVisiblePages(input.sections, input.readable);
  const overBy = Math.max(0, input.next.chars - input.maxChars);
  const listed = largest.length === 0 ? '' : `; largest core pages you can see: ${largest.map((p) => `${coreRef(p.source_id, p.slug)} (${p.chars})`).join(', ')}`;
  const projection =
    input.reason === 'max_chars'
      ? `core would be ${input.next.chars} chars, ${overBy} over memory.core.max_chars=${input.maxChars}`
      : `core would have ${input.next.count} pages, ${input.next.count - MAX_CORE_PAGES} over the limit of ${MAX_CORE_PAGES} core pages`;
  const suggestion = budgetSuggestion(input.reason, input.maxChars);
  return new CoreBudgetExceededError(`${projection}${listed}. ${suggestion}`, {
    suggestion,
    reason: input.reason,
    projected_chars: input.next.chars,
    current_chars: input.current.chars,
    max_chars: input.maxChars,
    over_by: overBy,
    page_count: input.next.count,
    max_pages: MAX_CORE_PAGES,
    largest_pages: largest,
  });
}
