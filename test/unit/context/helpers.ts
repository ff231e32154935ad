import { PageIndex } from '../../../src/context/page-index.js';
import type { Page } from '../../../src/pages/page.js';
import type { Turn } from '../../../src/context/turn.js';

export interface PageSpec {
  title: string;
  source?: string;
  type?: string;
  aliases?: unknown;
  visibility?: string;
  summary?: unknown;
  body?: string;
  frontmatter?: Record<string, unknown>;
}

export function page(slug: string, spec: PageSpec): Page {
  const frontmatter: Record<string, unknown> = { ...(spec.frontmatter ?? {}) };
  if (spec.aliases !== undefined) frontmatter.aliases = spec.aliases;
  if (spec.visibility !== undefined) frontmatter.visibility = spec.visibility;
  if (spec.summary !== undefined) frontmatter.summary = spec.summary;
  return {
    source_id: spec.source ?? 'default',
    slug,
    title: spec.title,
    type: spec.type ?? (slug.startsWith('people/') ? 'person' : 'concept'),
    frontmatter,
    compiled_truth: spec.body ?? '',
    timeline: '',
  };
}

/** An index holding the given pages (slug → spec). */
export function indexOf(pages: Record<string, PageSpec> | Page[], gazetteer = true): PageIndex {
  const index = new PageIndex({ gazetteer });
  const list = Array.isArray(pages) ? pages : Object.entries(pages).map(([slug, spec]) => page(slug, spec));
  for (const p of list) index.upsert(p);
  return index;
}

export const user = (text: string): Turn => ({ role: 'user', text });
export const assistant = (text: string): Turn => ({ role: 'assistant', text });
