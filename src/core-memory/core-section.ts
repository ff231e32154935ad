import { corePriority, type CorePageRow } from './core-page.js';
import { coreRef } from './core-ref.js';
import { renderCoreText } from './core-text.js';

export interface CoreSection {
  source_id: string;
  slug: string;
  title: string;
  priority: number;
  /** `## <title> (<ref>)`. */
  heading: string;
  /** The page's core text: compiled truth without takes fences nor withdrawn, private or expired facts. */
  text: string;
  /** `heading`, a blank line and the text; the heading alone when the text is empty. */
  section: string;
  /** Size of `section` in UTF-16 code units: the page's size in budgets and listings. */
  chars: number;
}

/**
 * `## ` + title (whitespace runs collapsed to one space, nothing else: the heading is not trimmed, and
 * the core revision hashes these bytes) + ` (<slug>)` or ` (<source_id>:<slug>)`.
 */
export function coreHeading(title: string, sourceId: string, slug: string): string {
  return `## ${title.replace(/\s+/g, ' ')} (${coreRef(sourceId, slug)})`;
}

/** One page's section of a core block. An empty core text still renders its heading. */
export function buildCoreSection(page: CorePageRow, today: string): CoreSection {
  const heading = coreHeading(page.title, page.source_id, page.slug);
  const text = renderCoreText(page.compiled_truth, today);
  const section = text === '' ? heading : `${heading}\n\n${text}`;
  return {
    source_id: page.source_id,
    slug: page.slug,
    title: page.title,
    priority: corePriority(page.frontmatter),
    heading,
    text,
    section,
    chars: section.length,
  };
}
