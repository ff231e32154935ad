import { stringify } from 'yaml';
import type { Page } from './page.js';

/** Page markdown as `page get` prints it: frontmatter, compiled truth, then the timeline. */
export function renderPageMarkdown(page: Pick<Page, 'title' | 'type' | 'frontmatter' | 'compiled_truth' | 'timeline'>): string {
  const front = stringify({ title: page.title, type: page.type, ...page.frontmatter }, { lineWidth: 0 }).trimEnd();
  let out = `---\n${front}\n---\n`;
  if (page.compiled_truth !== '') out += `\n${page.compiled_truth}\n`;
  if (page.timeline !== '') out += `\n<!-- timeline -->\n\n${page.timeline}\n`;
  return out;
}
