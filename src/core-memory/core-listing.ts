import { cmp } from '../code-unit-order.js';
import { isPrivate } from '../pages/page.js';
import { coreRevision } from './core-block.js';
import { measureCore } from './core-budget.js';
import { compareBrainWide } from './core-order.js';
import { isCorePage, MAX_CORE_PAGES, withheldReason, type CorePageRow } from './core-page.js';
import { buildCoreSection } from './core-section.js';
import type { PendingNotice } from './core-notices.js';
import { revisionToken } from './revision-token.js';

export interface CorePageListing {
  source_id: string;
  slug: string;
  title: string;
  priority: number;
  /** Section size; for a withheld page, the size it would have if it rendered. */
  chars: number;
  renders: boolean;
}

export interface ListingViewer {
  /** Readable sources; null = all (owner). */
  readable: readonly string[] | null;
  /** `core list` shows the owner's private core pages (marked); error lists and status never do. */
  includePrivate: boolean;
}

/** Live core pages the viewer may see, in brain-wide order. */
export function listCorePages(pages: readonly CorePageRow[], viewer: ListingViewer, today: string): CorePageListing[] {
  return pages
    .filter((p) => isCorePage(p) && (viewer.readable === null || viewer.readable.includes(p.source_id)))
    .filter((p) => viewer.includePrivate || !isPrivate(p))
    .sort(compareBrainWide)
    .map((p) => {
      const s = buildCoreSection(p, today);
      return { source_id: p.source_id, slug: p.slug, title: p.title, priority: s.priority, chars: s.chars, renders: withheldReason(p) === null };
    });
}

/** `core list` lines: one per page, then the totals. */
export function coreListLines(pages: readonly CorePageRow[], viewer: ListingViewer, maxChars: number, today: string): string[] {
  const measure = measureCore(pages, today);
  const byKey = new Map(pages.map((p) => [`${p.source_id}\u0000${p.slug}`, p]));
  const lines = listCorePages(pages, viewer, today).map((l) => {
    const reason = withheldReason(byKey.get(`${l.source_id}\u0000${l.slug}`)!);
    const note = reason === null ? '' : ` (${reason} — not rendered)`;
    return `${l.priority}  ${l.source_id}:${l.slug}  ${l.chars} chars${note}`;
  });
  return [...lines, `total ${measure.chars}/${maxChars} chars, ${measure.count}/${MAX_CORE_PAGES} pages`];
}

export interface CoreStatusInput {
  pages: readonly CorePageRow[];
  settings: { coreEnabled: boolean; maxChars: number; remoteEdit: string };
  readable: readonly string[] | null;
  /**
   * The owner sees its private core pages (not rendered), as `core list` shows them; remote
   * callers never do. (The spec named non-private pages only; status and list now agree.)
   */
  includePrivate?: boolean;
  pending: readonly PendingNotice[];
  today: string;
}

/** `core status --json`: effective settings, usage, revision, pending notices and the pages the caller may see. */
export function coreStatusJson(input: CoreStatusInput) {
  const measure = measureCore(input.pages, input.today);
  const max = input.settings.maxChars;
  const visible = listCorePages(input.pages, { readable: input.readable, includePrivate: input.includePrivate === true }, input.today).sort(
    (a, b) => b.chars - a.chars || a.priority - b.priority || cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug),
  );
  const canRead = (source: string): boolean => input.readable === null || input.readable.includes(source);
  return {
    enabled: input.settings.coreEnabled,
    max_chars: max,
    used_chars: measure.chars,
    over_by: Math.max(0, measure.chars - max),
    over_budget: measure.chars > max || measure.count > MAX_CORE_PAGES,
    remaining_chars: Math.max(0, max - measure.chars),
    page_count: measure.count,
    max_pages: MAX_CORE_PAGES,
    revision: coreRevision(measure.block.text),
    remote_edit: input.settings.remoteEdit,
    pending_notices: input.pending
      .filter((n) => canRead(n.source_id))
      .map((n) => ({ source_id: n.source_id, slug: n.slug, revision: revisionToken(n.revision) })),
    pages: visible,
  };
}
