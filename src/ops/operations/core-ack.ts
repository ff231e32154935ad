import { z } from 'zod';
import { coreAck } from '../core-review.js';
import { defineOperation } from './operation.js';
import { ResultSlug, ResultSourceId, SlugParam, SourceParam } from './slug-param.js';

/** `core_ack`: the owner accepts remote edits of a core page up to a revision (`core ack`). */
export const coreAckOp = defineOperation({
  name: 'core_ack',
  title: 'Accept remote edits of a core page',
  description: 'Acknowledge a pending remote revision of a core page and every earlier one (owner only).',
  params: z.strictObject({
    slug: SlugParam,
    revision: z.string().describe('The revision named by the notice, e.g. "r3".'),
    source_id: SourceParam.optional(),
  }),
  result: z.looseObject({
    source_id: ResultSourceId,
    slug: ResultSlug,
    revision: z.string().describe('The revision now acknowledged.'),
    pending: z.string().nullable().describe('The latest remote revision still pending, or null.'),
  }),
  // Acking the same revision again is refused (revision_not_found): only a pending one can be.
  effect: { readOnly: false, destructive: false, idempotent: false },
  access: 'owner',
  run: (ctx, p) => coreAck(ctx.brain, ctx.caller, p.source_id ?? ctx.caller.source, p.slug, p.revision),
});
