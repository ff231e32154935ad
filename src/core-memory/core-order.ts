import { cmp } from '../code-unit-order.js';
import { corePriority, isRenderableCorePage, type CorePageRow } from './core-page.js';
import { DEFAULT_SOURCE } from './core-ref.js';

const byPriorityThenSlug = (a: CorePageRow, b: CorePageRow): number =>
  corePriority(a.frontmatter) - corePriority(b.frontmatter) || cmp(a.slug, b.slug);

/** Brain-wide order: `core_priority`, then `source_id`, then slug. */
export const compareBrainWide = (a: CorePageRow, b: CorePageRow): number =>
  corePriority(a.frontmatter) - corePriority(b.frontmatter) || cmp(a.source_id, b.source_id) || cmp(a.slug, b.slug);

/** Every renderable core page of every source, in brain-wide order. */
export function brainWideCorePages<P extends CorePageRow>(pages: readonly P[]): P[] {
  return pages.filter(isRenderableCorePage).sort(compareBrainWide);
}

export interface SessionScope {
  /** The session source `S`. */
  sessionSource: string;
  /** Readable sources `R`; null = every source (owner). */
  readable: readonly string[] | null;
}

const canRead = (readable: readonly string[] | null, source: string): boolean => readable === null || readable.includes(source);

/**
 * Session block pages for (S, R): the default source's renderable core pages (if readable),
 * then S's (if S ≠ default and readable); each part by priority then slug. The product rule
 * "default source first, then the session's own source" beats priority across parts.
 */
export function sessionCorePages<P extends CorePageRow>(pages: readonly P[], scope: SessionScope): P[] {
  const part = (source: string): P[] =>
    pages.filter((p) => p.source_id === source && isRenderableCorePage(p)).sort(byPriorityThenSlug);
  const first = canRead(scope.readable, DEFAULT_SOURCE) ? part(DEFAULT_SOURCE) : [];
  const second =
    scope.sessionSource !== DEFAULT_SOURCE && canRead(scope.readable, scope.sessionSource) ? part(scope.sessionSource) : [];
  return [...first, ...second];
}
