import { z } from 'zod';
import { applySuggestions, coreSuggestions } from '../core-suggest.js';
import { defineOperation } from './operation.js';
import { opNow } from './op-settings.js';
import { ResultSlug, ResultSourceId } from './slug-param.js';

/** `core_suggest_apply`: the owner marks the core suggestions in order, stopping at the first refusal (`core suggest --apply`). */
export const coreSuggestApplyOp = defineOperation({
  name: 'core_suggest_apply',
  title: 'Mark the suggested pages core',
  description: 'Mark the core suggestions in order with core add semantics, stopping at the first refusal (owner only).',
  params: z.strictObject({}),
  result: z.looseObject({
    applied: z.array(z.looseObject({ source_id: ResultSourceId, slug: ResultSlug })).describe('The pages marked core, as core add reports them.'),
    refused: z
      .looseObject({ source_id: ResultSourceId, slug: ResultSlug, error: z.string(), message: z.string() })
      .nullable()
      .describe('The first suggestion refused (later ones were not tried), or null.'),
  }),
  effect: { readOnly: false, destructive: false, idempotent: true },
  access: 'owner',
  refusal: 'core suggest --apply is an owner-only command; ask the user to run it on the brain host',
  async run(ctx, _p) {
    const now = opNow(ctx);
    const result = await applySuggestions(ctx.brain, ctx.caller, await coreSuggestions(ctx.brain, ctx.caller, now), now);
    const refused = result.refused && {
      source_id: result.refused.suggestion.source_id,
      slug: result.refused.suggestion.slug,
      error: result.refused.error.code,
      message: result.refused.error.message,
    };
    return { applied: result.applied, refused };
  },
});
