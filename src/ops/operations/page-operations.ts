import { z } from 'zod';
import { deletePage, getPage, listPages, putPage } from '../page-ops.js';
import { defineOperation, READ_ONLY } from './operation.js';
import { ResultSlug, ResultSourceId, SessionParam, SlugParam, SourceParam } from './slug-param.js';

/** `get_page`: the page as the caller may see it; records a retrieval, which `--stats` counts as use. */
export const getPageOp = defineOperation({
  name: 'get_page',
  title: 'Read a brain page',
  description:
    'Read one brain page (frontmatter, compiled truth, timeline). Records a retrieval; pass session_id so volunteered-page precision can attribute it.',
  params: z.strictObject({
    slug: SlugParam,
    source_id: SourceParam.optional(),
    session_id: SessionParam,
  }),
  result: z.looseObject({
    source_id: ResultSourceId,
    slug: ResultSlug,
    title: z.string().describe('Page title.'),
    type: z.string().describe('Page type, e.g. person, company, concept.'),
    frontmatter: z.record(z.string(), z.unknown()).describe('The page frontmatter as an object.'),
    compiled_truth: z.string().describe('The current summary (markdown above the timeline).'),
    timeline: z.string().describe('The dated history (markdown), "" when none.'),
  }),
  effect: READ_ONLY,
  access: 'any',
  async run(ctx, p) {
    const page = await getPage(ctx.brain, ctx.caller, p.source_id ?? ctx.caller.source, p.slug, p.session_id);
    const { source_id, slug, title, type, frontmatter, compiled_truth, timeline } = page;
    return { source_id, slug, title, type, frontmatter, compiled_truth, timeline };
  },
});

/** `put_page`: full markdown replaces the page in the caller's (bound) source. */
export const putPageOp = defineOperation({
  name: 'put_page',
  title: 'Create or replace a brain page',
  description: 'Create or replace a brain page from full markdown (frontmatter + body) in your source.',
  params: z.strictObject({
    slug: SlugParam,
    markdown: z.string().describe('The whole page: optional YAML frontmatter between --- lines, then the body. Replaces the page.'),
  }),
  result: z.looseObject({
    source_id: ResultSourceId,
    slug: ResultSlug,
    status: z.enum(['created', 'updated', 'unchanged']).describe('What the write did.'),
  }),
  // Replaces the stored page; the same markdown again is `unchanged`.
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'any',
  run: (ctx, p) => putPage(ctx.brain, ctx.caller, p.slug, p.markdown),
});

/** `delete_page`: soft delete; remote callers only in their bound source. */
export const deletePageOp = defineOperation({
  name: 'delete_page',
  title: 'Delete a brain page',
  description: 'Soft-delete a brain page of your source.',
  params: z.strictObject({ slug: SlugParam, source_id: SourceParam.optional() }),
  result: z.looseObject({
    source_id: ResultSourceId,
    slug: ResultSlug,
    status: z.literal('deleted').describe('Always "deleted".'),
  }),
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'any',
  async run(ctx, p) {
    const sourceId = p.source_id ?? ctx.caller.source;
    await deletePage(ctx.brain, ctx.caller, sourceId, p.slug);
    return { source_id: sourceId, slug: p.slug, status: 'deleted' };
  },
});

/** `list_pages`: live pages the caller may read, by source then slug. */
export const listPagesOp = defineOperation({
  name: 'list_pages',
  title: 'List brain pages',
  description: 'List the live brain pages you can read (optionally of one source).',
  params: z.strictObject({ source_id: SourceParam.optional().describe('Only pages of this source (1–32 of [a-z0-9-]). Default: every source you can read.') }),
  result: z.looseObject({
    pages: z
      .array(z.looseObject({ source_id: ResultSourceId, slug: ResultSlug, title: z.string().describe('Page title.'), type: z.string().describe('Page type.') }))
      .describe('The pages, by source then slug.'),
    count: z.number().int().describe('Number of pages.'),
  }),
  effect: READ_ONLY,
  access: 'any',
  async run(ctx, p) {
    const pages = await listPages(ctx.brain, ctx.caller, p.source_id ?? null);
    return { pages: pages.map((x) => ({ source_id: x.source_id, slug: x.slug, title: x.title, type: x.type })), count: pages.length };
  },
});
