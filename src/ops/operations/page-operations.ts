import { z } from 'zod';
import { deletePage, getPage, listPages, putPage } from '../page-ops.js';
import { defineOperation } from './operation.js';
import { SessionParam, SlugParam, SourceParam } from './slug-param.js';

/** `get_page`: the page as the caller may see it; records a retrieval, which `--stats` counts as use. */
export const getPageOp = defineOperation({
  name: 'get_page',
  description:
    'Read one brain page (frontmatter, compiled truth, timeline). Records a retrieval; pass session_id so volunteered-page precision can attribute it.',
  params: z.object({
    slug: SlugParam,
    source_id: SourceParam.optional(),
    session_id: SessionParam,
  }),
  async run(ctx, p) {
    const page = await getPage(ctx.brain, ctx.caller, p.source_id ?? ctx.caller.source, p.slug, p.session_id);
    const { source_id, slug, title, type, frontmatter, compiled_truth, timeline } = page;
    return { source_id, slug, title, type, frontmatter, compiled_truth, timeline };
  },
});

/** `put_page`: full markdown replaces the page in the caller's (bound) source. */
export const putPageOp = defineOperation({
  name: 'put_page',
  description: 'Create or replace a brain page from full markdown (frontmatter + body) in your source.',
  params: z.object({ slug: SlugParam, markdown: z.string() }),
  run: (ctx, p) => putPage(ctx.brain, ctx.caller, p.slug, p.markdown),
});

/** `delete_page`: soft delete; remote callers only in their bound source. */
export const deletePageOp = defineOperation({
  name: 'delete_page',
  description: 'Soft-delete a brain page of your source.',
  params: z.object({ slug: SlugParam, source_id: SourceParam.optional() }),
  async run(ctx, p) {
    const sourceId = p.source_id ?? ctx.caller.source;
    await deletePage(ctx.brain, ctx.caller, sourceId, p.slug);
    return { source_id: sourceId, slug: p.slug, status: 'deleted' };
  },
});

/** `list_pages`: live pages the caller may read, by source then slug. */
export const listPagesOp = defineOperation({
  name: 'list_pages',
  description: 'List the live brain pages you can read (optionally of one source).',
  params: z.object({ source_id: SourceParam.optional() }),
  async run(ctx, p) {
    const pages = await listPages(ctx.brain, ctx.caller, p.source_id ?? null);
    return { pages: pages.map((x) => ({ source_id: x.source_id, slug: x.slug, title: x.title, type: x.type })), count: pages.length };
  },
});
