import { z } from 'zod';
import { coreInit } from '../core-init.js';
import { coreStatus } from '../core-views.js';
import { defineOperation } from './operation.js';
import { opNow } from './op-settings.js';
import { ResultSlug, ResultSourceId, SourceParam } from './slug-param.js';

const Usage = z.looseObject({ used: z.number(), max: z.number(), count: z.number() }).describe('Core size and page count against the budget.');

/** `core_init`: the owner creates core/profile and marks it core (`brainstream core init`). */
export const coreInitOp = defineOperation({
  name: 'core_init',
  title: 'Create the core profile page',
  description: 'Create core/profile (a starter profile page) in a source and mark it core; an existing core profile is left alone (owner only).',
  params: z.strictObject({ source_id: SourceParam.optional() }),
  result: z.looseObject({
    status: z.enum(['created', 'already_initialised']).describe('What the run did.'),
    source_id: ResultSourceId,
    slug: ResultSlug,
    chars: z.number().int().describe('Size of the profile’s core section.'),
    usage: Usage,
    enabled: z.boolean().describe('memory.core.enabled: while false sessions receive no core.'),
  }),
  effect: { readOnly: false, destructive: false, idempotent: true },
  access: 'owner',
  refusal: 'core init is an owner-only command; ask the user to run it on the brain host',
  async run(ctx, p) {
    const r = await coreInit(ctx.brain, ctx.caller, p.source_id ?? ctx.caller.source, opNow(ctx));
    return { ...r, enabled: (await coreStatus(ctx.brain, ctx.caller)).enabled };
  },
});
