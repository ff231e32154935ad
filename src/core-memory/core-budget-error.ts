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

const STATUS_HINT = '(see brainstream core status --json)';
const MOVE_DETAIL = 'Move detail into a linked non-core page and keep a one-line pointer';

/**
 * The fixes a refusal names. Raising the budget is offered only when it would let this
 * write through, i.e. when the projected size fits the 6000 ceiling: otherwise (the budget is
 * already 6000, or the write is larger still) the command would change nothing. For the page
 * count, which no setting raises, the fixes are keeping the detail out of core behind a pointer
 * in a page that is already core, or taking a page out of core.
 */
export function budgetSuggestion(reason: 'max_chars' | 'max_pages', projectedChars: number): string {
  if (reason === 'max_pages') {
    return `${MOVE_DETAIL} in a page that is already core, or ask the user to take a page out of core with brainstream core remove ${STATUS_HINT}`;
  }
  if (projectedChars > MAX_CHARS_CEILING) return `${MOVE_DETAIL} ${STATUS_HINT}`;
  return `${MOVE_DETAIL}, or ask the user to run: brainstream config set memory.core.max_chars ${MAX_CHARS_CEILING} ${STATUS_HINT}`;
}

/** What the write would make of core, and how far over the limit it hit. */
function projection(input: BudgetRefusalInput, overBy: number): string {
  if (input.reason === 'max_chars') return `core would be ${input.next.chars} chars, ${overBy} over memory.core.max_chars=${input.maxChars}`;
  const pagesOver = input.next.count - MAX_CORE_PAGES;
  return `core would have ${input.next.count} pages, ${pagesOver} over the limit of ${MAX_CORE_PAGES} core pages, and be ${input.next.chars} chars (memory.core.max_chars=${input.maxChars})`;
}

/** Builds the `core_budget_exceeded` refusal with every envelope field. */
export function budgetExceededError(input: BudgetRefusalInput): CoreBudgetExceededError {
  const largest = largestVisiblePages(input.sections, input.readable);
  const overBy = Math.max(0, input.next.chars - input.maxChars);
  const listed = largest.length === 0 ? '' : `; largest core pages you can see: ${largest.map((p) => `${coreRef(p.source_id, p.slug)} (${p.chars})`).join(', ')}`;
  const suggestion = budgetSuggestion(input.reason, input.next.chars);
  return new CoreBudgetExceededError(`${projection(input, overBy)}${listed}. ${suggestion}`, {
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
