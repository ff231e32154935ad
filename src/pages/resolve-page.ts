import { typeFromPath, titleFromFileName } from './import-paths.js';
import { parsePageMarkdown, titleFromBody } from './markdown.js';
import type { Page } from './page.js';

export interface ResolvePageOptions {
  /** The page's slug; its last segment titles the page when nothing else does. */
  slugHint: string;
  /** File name (import) used for the title when neither frontmatter nor an H1 gives one. */
  fileName?: string;
  /** Path used by the folder → type rule; defaults to the slug. */
  pathForType?: string;
}

export type ResolvedPage = Omit<Page, 'source_id' | 'slug'>;

/**
 * Turns page markdown into the stored columns. Title: frontmatter `title` → first H1 → file
 * name (or the slug's last segment). Type: frontmatter `type` → folder rule → `concept`.
 * An empty document is a valid empty page. Throws `InvalidFrontmatterError`.
 */
export function resolvePage(markdown: string, options: ResolvePageOptions): ResolvedPage {
  const parsed = parsePageMarkdown(markdown);
  const nameSource = options.fileName ?? options.slugHint.split('/').pop() ?? options.slugHint;
  const title = parsed.title ?? titleFromBody(parsed.compiled_truth) ?? (titleFromFileName(nameSource) || options.slugHint);
  return {
    title,
    type: parsed.type ?? typeFromPath(options.pathForType ?? options.slugHint),
    frontmatter: parsed.frontmatter,
    compiled_truth: parsed.compiled_truth,
    timeline: parsed.timeline,
  };
}
