/** A page as the projections and the in-memory index hold it. */
export interface Page {
  source_id: string;
  slug: string;
  title: string;
  type: string;
  frontmatter: Record<string, unknown>;
  compiled_truth: string;
  timeline: string;
}

/** Private iff frontmatter `visibility` is exactly "private". */
export const isPrivate = (page: Pick<Page, 'frontmatter'>): boolean => page.frontmatter.visibility === 'private';
