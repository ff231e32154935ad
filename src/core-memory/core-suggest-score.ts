/** What `core suggest` reads of a page. */
export interface SuggestCandidate {
  slug: string;
  type: string;
  frontmatter: Record<string, unknown>;
}

const PROFILE_SLUGS = new Set(['core/profile', 'me', 'people/me']);
const PREFERENCE_SEGMENTS = new Set(['prefs', 'preferences']);
const FINISHED = new Set(['done', 'archived', 'closed']);

function tags(frontmatter: Record<string, unknown>): string[] {
  const t = frontmatter.tags;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string').map((x) => x.trim().toLowerCase());
  if (typeof t === 'string') return t.split(/[,\s]+/).map((x) => x.trim().toLowerCase()).filter((x) => x !== '');
  return [];
}

/**
 * `core suggest` score: 3 for the profile slugs (`core/profile`, `me`,
 * `people/me`); 2 for a first slug segment `prefs`/`preferences` or the tag `preferences`; 1 for
 * a `project` whose `status` is not done/archived/closed; 0 (not a candidate) otherwise.
 */
export function suggestScore(page: SuggestCandidate): number {
  if (PROFILE_SLUGS.has(page.slug)) return 3;
  if (PREFERENCE_SEGMENTS.has(page.slug.split('/')[0]) || tags(page.frontmatter).includes('preferences')) return 2;
  if (page.type === 'project') {
    const status = page.frontmatter.status;
    if (!(typeof status === 'string' && FINISHED.has(status.trim().toLowerCase()))) return 1;
  }
  return 0;
}
