import { z } from 'zod';
import { listSources } from '../../../projections/pages-queries.js';
import { readableSources } from '../../caller.js';
import { lookupEntity } from './entity-lookup.js';
import { defineOperation, READ_ONLY } from './operation.js';
import { PROTOCOL_VERSION } from './slug-param.js';
import { packContext, type EntityCard } from './pack-context.js';
import { sessionCoreText } from './session-core.js';

const MAX_PACK_ENTITIES = 8;

const Entities = z
  .union([z.string(), z.array(z.string())])
  .nullable()
  .optional()
  .transform((e) => (e == null ? [] : (Array.isArray(e) ? e : e.split(','))).map((s) => s.trim()).filter((s) => s !== ''))
  .refine((e) => e.length <= MAX_PACK_ENTITIES, { message: `at most ${MAX_PACK_ENTITIES} entities` })
  .describe(`Entities to add a card for: names or slugs, comma-separated or a list, at most ${MAX_PACK_ENTITIES}. Default: none (core alone).`);

const Card = z.looseObject({
  name: z.string().describe('The name as asked.'),
  source_id: z.string().describe('Source id of the page.'),
  slug: z.string().describe('Page slug.'),
  title: z.string().describe('Page title.'),
  synopsis: z.string().describe('One-line synopsis ("" when none).'),
});

/**
 * `context_pack`: the caller's core block plus standing-entity cards.
 * `include_private` is accepted for compatibility with older clients and changes nothing: the
 * spec says private pages never appear in a pack (for any caller), and it has no effect on core.
 */
export const contextPackOp = defineOperation({
  name: 'context_pack',
  title: 'Standing context pack',
  description:
    'Standing context for this session: your core memory block, plus one card per named entity (comma-separated or a list, at most 8), within an optional token budget. Call it with no entities to get core alone. Private pages never appear; include_private is accepted but has no effect.',
  params: z.strictObject({
    entities: Entities,
    budget_tokens: z
      .number()
      .int()
      .positive()
      .nullable()
      .optional()
      .describe('Token budget (a whole number ≥ 1; tokens = ceil(chars/4)): core first and whole, then cards. Default: no limit.'),
    include_private: z.boolean().nullable().optional().describe('Accepted for older clients; has no effect (private pages never appear).'),
  }),
  result: z.looseObject({
    text: z.string().describe('The pack to read: core, then the entity cards.'),
    core: z.string().describe('Your core memory block ("" when disabled, empty or over the budget).'),
    entities: z.array(Card).describe('The entity cards that fit.'),
    budget_tokens: z.number().int().nullable().describe('The budget asked for, or null.'),
    budget_used: z.number().int().describe('Tokens used (core included); never over the budget.'),
    dropped_count: z.number().int().describe('Parts left out for the budget.'),
    unresolved: z.array(z.string()).describe('Names that matched no page you can read.'),
    protocol_version: PROTOCOL_VERSION,
  }),
  effect: READ_ONLY,
  access: 'any',
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
