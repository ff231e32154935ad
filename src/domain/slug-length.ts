/** The longest slug a page event may carry (`Slug` in src/domain/event-schemas.ts). */
export const MAX_SLUG_CHARS = 512;

/** Why `slug` is too long to store, or null. Length in UTF-16 code units, as everywhere. */
export const slugLengthProblem = (slug: string): string | null =>
  slug.length > MAX_SLUG_CHARS ? `slug is ${slug.length} characters, over the ${MAX_SLUG_CHARS}-character limit` : null;
