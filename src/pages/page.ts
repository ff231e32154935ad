import type { PageUpserted } from '../domain/event-schemas.js';

/** A page as the projections and the in-memory index hold it: the upsert event's page fields. */
export type Page = Pick<PageUpserted, 'source_id' | 'slug' | 'title' | 'type' | 'frontmatter' | 'compiled_truth' | 'timeline'>;

/** Private iff frontmatter `visibility` is exactly "private". */
export const isPrivate = (page: Pick<Page, 'frontmatter'>): boolean => page.frontmatter.visibility === 'private';
