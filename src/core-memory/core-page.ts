import { isPrivate } from '../pages/page.js';

/** What the core rules read of a page row (a `StoredPage` fits). */
export interface CorePageRow {
  source_id: string;
  slug: string;
  title: string;
  frontmatter: Record<string, unknown>;
  compiled_truth: string;
  /** Soft-deleted rows are never core; absent = live. */
  deleted?: boolean;
}

const DEFAULT_CORE_PRIORITY = 100;
export const MAX_CORE_PAGES = 50;

/** Frontmatter marks core only with the boolean `true` (`"true"`, `"yes"`, `1` do not). */
export const isMarkedCore = (frontmatter: Record<string, unknown>): boolean => frontmatter.always_load === true;

/** A live page marked core. Core-ness belongs to the `(source_id, slug)` row. */
export const isCorePage = (page: Pick<CorePageRow, 'frontmatter' | 'deleted'>): boolean =>
  page.deleted !== true && isMarkedCore(page.frontmatter);

/** `core_priority` as it sorts: a finite number as is, anything else (or absent) 100. */
export function corePriority(frontmatter: Record<string, unknown>): number {
  const p = frontmatter.core_priority;
  return typeof p === 'number' && Number.isFinite(p) ? p : DEFAULT_CORE_PRIORITY;
}

/** True when `core_priority` is present but not a finite number (doctor reports it). */
export function hasInvalidCorePriority(frontmatter: Record<string, unknown>): boolean {
  if (!Object.hasOwn(frontmatter, 'core_priority')) return false;
  const p = frontmatter.core_priority;
  return !(typeof p === 'number' && Number.isFinite(p));
}

export const isQuarantined = (frontmatter: Record<string, unknown>): boolean => frontmatter.quarantine === true;

/** Why a live core page never renders, or null when it does. */
export function withheldReason(page: Pick<CorePageRow, 'frontmatter'>): 'private' | 'quarantined' | null {
  if (isPrivate(page)) return 'private';
  if (isQuarantined(page.frontmatter)) return 'quarantined';
  return null;
}

/**
 * Renderable: a live core page that is neither private nor quarantined. Content flagged
 * unsafe must not reach every prompt, and private pages never render for anyone.
 */
export const isRenderableCorePage = (page: Pick<CorePageRow, 'frontmatter' | 'deleted'>): boolean =>
  isCorePage(page) && withheldReason(page) === null;
