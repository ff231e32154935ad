import { z } from 'zod';
import { listSources } from '../page-store.js';
import { readableSources } from '../../caller.js';
import { lookupEntity } from './entity-lookup.js';
import { defineOperation } from './operation.js';
import { packContext, type EntityCard } from './pack-context.js';
import { sessionCoreText } from './session-core.js';

export const MAX_PACK_ENTITIES = 8;

const Entities = z
  .union([z.string(), z.array(z.string())])
  .nullable()
  .optional()
  .transform((e) => (e == null ? [] : (Array.isArray(e) ? e : e.split(','))).map((s) => s.trim()).filter((s) => s !== ''))
  .refine((e) => e.length <= MAX_PACK_ENTITIES, { message: `at most ${MAX_PACK_ENTITIES} entities` });

/**
 * `context_pack`: the caller's core block plus standing-entity cards.
 * `include_private` is accepted for compatibility with older clients and changes nothing: the
 * spec says private pages never appear in a pack (for any caller), and it has no effect on core.
 */
export const contextPackOp = defineOperation({
  name: 'context_pack',
  description:
    'Standing context for this session: your core memory block, plus one card per named entity (comma-separated or a list, at most 8), within an optional token budget. Call it with no entities to get core alone. Private pages never appear; include_private is accepted but has no effect.',
  params: z.object({
    entities: Entities,
    budget_tokens: z.number().int().positive().nullable().optional(),
    include_private: z.boolean().nullable().optional(),
  }),
  async run(ctx, p) {
    const core = await sessionCoreText(ctx);
    const cards: EntityCard[] = [];
    const unresolved: string[] = [];
    if (p.entities.length > 0) {
      const index = await ctx.pageIndex();
      const scope = readableSources(ctx.caller, await listSources(ctx.brain.db));
      for (const name of p.entities) {
        const rec = lookupEntity(index, name, scope);
        if (rec === null) unresolved.push(name);
        else if (!cards.some((c) => c.source_id === rec.sourceId && c.slug === rec.slug)) {
          cards.push({ name, source_id: rec.sourceId, slug: rec.slug, title: rec.title, synopsis: rec.synopsis });
        }
      }
    }
    const pack = packContext(core, cards, p.budget_tokens ?? null);
    return { ...pack, unresolved, protocol_version: 1 as const };
  },
});
