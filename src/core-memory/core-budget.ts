import { renderBrainWideBlock, type CoreBlock } from './core-block.js';
import { budgetExceededError } from './core-budget-error.js';
import { isCorePage, MAX_CORE_PAGES, type CorePageRow } from './core-page.js';
import type { CoreBudgetExceededError } from './errors.js';

export interface CoreMeasure {
  /** Size of the brain-wide block. */
  chars: number;
  /** Live pages with `always_load: true` in every source, private and quarantined included. */
  count: number;
  block: CoreBlock;
}

/** Brain-wide size and count. The count caps what the owner manages, rendered or not. */
export function measureCore(pages: readonly CorePageRow[], today: string): CoreMeasure {
  const block = renderBrainWideBlock(pages, today);
  return { chars: block.chars, count: pages.filter(isCorePage).length, block };
}

/** One proposed page write: a new version of a row, or its (soft) deletion. */
export type CoreWrite =
  | { kind: 'upsert'; page: CorePageRow }
  | { kind: 'delete'; source_id: string; slug: string };

const sameRow = (a: { source_id: string; slug: string }, b: { source_id: string; slug: string }): boolean =>
  a.source_id === b.source_id && a.slug === b.slug;

/** The page rows as they would be after `write`. */
export function applyCoreWrite<P extends CorePageRow>(pages: readonly P[], write: CoreWrite): CorePageRow[] {
  const key = write.kind === 'upsert' ? write.page : write;
  const others: CorePageRow[] = pages.filter((p) => !sameRow(p, key));
  return write.kind === 'upsert' ? [...others, write.page] : others;
}

export interface CoreBudgetCheck {
  /** Every page row that may be core (at least all rows marked core, plus the written row). */
  pages: readonly CorePageRow[];
  write: CoreWrite;
  /** Effective `memory.core.max_chars`. */
  maxChars: number;
  /** UTC `YYYY-MM-DD`, for fact expiry in core text. */
  today: string;
  /** Sources the caller can read (for `largest_pages`); null = all (owner). */
  readable: readonly string[] | null;
}

export interface CoreBudgetDecision {
  /** False for writes that cannot grow core: deletes, and non-core pages that stay non-core. */
  checked: boolean;
  refused: boolean;
  reason: 'max_chars' | 'max_pages' | null;
  current: { chars: number; count: number };
  next: { chars: number; count: number };
  error: CoreBudgetExceededError | null;
}

/**
 * The budget guard: refuse iff (next size > max and next size > current size) or
 * (next count > 50 and next count > current count). Shrinking or size-neutral writes pass
 * even while over budget, so an over-budget brain can always be brought back under.
 */
export function evaluateCoreBudget(check: CoreBudgetCheck): CoreBudgetDecision {
  const cur = measureCore(check.pages, check.today);
  const current = { chars: cur.chars, count: cur.count };
  const key = check.write.kind === 'upsert' ? check.write.page : check.write;
  const before = check.pages.find((p) => sameRow(p, key));
  const touchesCore = check.write.kind === 'upsert' && ((before !== undefined && isCorePage(before)) || isCorePage(check.write.page));
  if (!touchesCore) return { checked: false, refused: false, reason: null, current, next: current, error: null };

  const after = measureCore(applyCoreWrite(check.pages, check.write), check.today);
  const next = { chars: after.chars, count: after.count };
  const overChars = next.chars > check.maxChars && next.chars > current.chars;
  const overPages = next.count > MAX_CORE_PAGES && next.count > current.count;
  const reason = overChars ? 'max_chars' : overPages ? 'max_pages' : null;
  if (reason === null) return { checked: true, refused: false, reason, current, next, error: null };
  const error = budgetExceededError({
    reason,
    current,
    next,
    maxChars: check.maxChars,
    sections: after.block.sections,
    readable: check.readable,
  });
  return { checked: true, refused: true, reason, current, next, error };
}
