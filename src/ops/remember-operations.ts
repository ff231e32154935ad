import { z } from 'zod';
import { BrainstreamError } from '../errors.js';
import { factsList } from './facts-list.js';
import { forget } from './forget.js';
import { MAX_PROVENANCE_CHARS, MAX_REMEMBER_ITEMS, MAX_REQUEST_ID_CHARS } from '../core-memory/remember-params.js';
import { FACT_KINDS, FACT_VISIBILITIES } from '../pages/facts-table.js';
import { defineOperation, READ_ONLY } from './operations/operation.js';
import { PROTOCOL_VERSION } from './operations/slug-param.js';
import { remember } from './remember.js';

const FACT_KINDS_TEXT = FACT_KINDS.join(', ');

/**
 * The fields of one fact. Only their types are checked here (the advertised enum and limits
 * are metadata): `validateRememberParams` decides the rest, in item order, so the first failure
 * is the one reported (`provenance_required` before a later item's bad kind).
 */
const factFields = {
  fact: z.string().nullable().optional().describe('The fact, one self-contained sentence (required, non-empty).'),
  provenance: z
    .string()
    .nullable()
    .optional()
    .meta({ maxLength: MAX_PROVENANCE_CHARS })
    .describe(`Where it comes from, e.g. "chat 2026-04-07" (required, non-empty, at most ${MAX_PROVENANCE_CHARS} characters).`),
  entity: z.string().nullable().optional().describe('Slug of the page the fact is about, in your source (e.g. "people/alice-example"); the fact becomes a row of its facts table. Default: none.'),
  kind: z.string().nullable().optional().meta({ enum: [...FACT_KINDS] }).describe(`One of ${FACT_KINDS_TEXT}. Default fact.`),
  visibility: z.string().nullable().optional().meta({ enum: [...FACT_VISIBILITIES] }).describe('private or world. Default: the capture policy (memory.capture.visibility).'),
  ttl: z
    .string()
    .nullable()
    .optional()
    .describe('How long it stays valid: 30d, 12h, 45m, 90s (or spelled-out units), or an ISO 8601 date/datetime; ISO durations such as P30D are refused. Default: the capture policy (memory.capture.ttl), else none.'),
  supersedes: z.union([z.string(), z.number().int()]).nullable().optional().describe('Id of a fact of your source that this one replaces (it is withdrawn).'),
};

const ItemOutcome = z.looseObject({
  index: z.number().int().describe('Position in items.'),
  id: z.string().optional().describe('Fact id (absent on error).'),
  status: z.enum(['inserted', 'duplicate', 'superseded', 'error']).describe('What happened to this item.'),
  status_text: z.string().optional().describe('Human summary.'),
  entity_slug: z.string().optional().describe('The entity page, when given.'),
  valid_until: z.string().nullable().optional().describe('Expiry (ISO date or date-time), null for none.'),
  error: z.looseObject({ code: z.string().describe('Error code.'), message: z.string().describe('Why.') }).optional().describe('With status error.'),
});

/** `remember`: the single form's fields, or `items` of them. */
export const rememberOp = defineOperation({
  name: 'remember',
  title: 'Remember facts',
  description:
    'Save facts that must survive: either one fact (fact, provenance, optional entity, kind, ttl, visibility, supersedes) or items: 1–20 such objects, each saved as its own write with its own status (partial: true when some failed). Pass request_id to make retries safe.',
  params: z.strictObject({
    ...factFields,
    items: z
      .array(z.strictObject(factFields))
      .nullable()
      .optional()
      .meta({ minItems: 1, maxItems: MAX_REMEMBER_ITEMS })
      .describe(`1–${MAX_REMEMBER_ITEMS} facts, each with the fields above; instead of fact (not both). Every item is checked before anything is written.`),
    request_id: z
      .string()
      .nullable()
      .optional()
      .meta({ maxLength: MAX_REQUEST_ID_CHARS })
      .describe(`Retry key (1–${MAX_REQUEST_ID_CHARS} characters): the same request_id with the same facts returns the first response and writes nothing; with other facts it is refused.`),
  }),
  result: z.looseObject({
    id: z.string().optional().describe('Single form: the fact id.'),
    status: z.enum(['inserted', 'duplicate', 'superseded']).optional().describe('Single form: what happened.'),
    status_text: z.string().optional().describe('Single form: human summary.'),
    entity_slug: z.string().nullable().optional().describe('Single form: the entity page, or null.'),
    valid_until: z.string().nullable().optional().describe('Single form: expiry (ISO date or date-time), null for none.'),
    items: z.array(ItemOutcome).optional().describe('With items: one outcome per item, in order.'),
    partial: z.boolean().optional().describe('With items: true iff some item has status error.'),
    request_id: z.string().optional().describe('With items: the request_id given.'),
    protocol_version: PROTOCOL_VERSION,
  }),
  // Adds facts (a superseded one is struck, not erased); the same facts again are `duplicate`.
  effect: { readOnly: false, destructive: false, idempotent: true },
  access: 'any',
  run: (ctx, p) => remember(ctx.brain, ctx.caller, p, ctx.now ? { now: ctx.now() } : {}),
});

/** `forget`: withdraws a remembered fact by id. */
export const forgetOp = defineOperation({
  name: 'forget',
  title: 'Forget a fact',
  description: 'Withdraw a remembered fact by its id (struck from its page; no longer active). Optional reason.',
  params: z.strictObject({
    id: z.union([z.string(), z.number()]).describe('The fact id, as remember or list_facts returned it.'),
    reason: z.string().nullable().optional().describe('Why, kept with the struck row. Default "user request".'),
  }),
  result: z.looseObject({
    id: z.string().describe('The fact id.'),
    status: z.enum(['forgotten', 'unchanged']).describe('unchanged: it was already withdrawn.'),
    status_text: z.string().describe('Human summary.'),
    entity_slug: z.string().nullable().describe('Its entity page, or null.'),
    valid_until: z.string().describe('Now its expiry: today.'),
    protocol_version: PROTOCOL_VERSION,
  }),
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'any',
  run: (ctx, p) => forget(ctx.brain, ctx.caller, p.id, p.reason ?? undefined, ctx.now ? { now: ctx.now() } : {}),
});

/** `list_facts`: the stored facts the caller may read, newest first. */
export const listFactsOp = defineOperation({
  name: 'list_facts',
  title: 'List remembered facts',
  description: 'List remembered facts you can read, newest first (optionally of one entity or source).',
  params: z.strictObject({
    entity: z.string().nullable().optional().describe('Only facts about this entity slug (non-empty). Default: all.'),
    source_id: z.string().nullable().optional().describe('Only facts of this source. Default: every source you can read.'),
    include_forgotten: z.boolean().nullable().optional().describe('Also withdrawn (forgotten or superseded) facts. Default false.'),
  }),
  result: z.looseObject({
    facts: z
      .array(
        z.looseObject({
          id: z.string().describe('Fact id.'),
          entity: z.string().nullable().describe('Entity slug, or null.'),
          kind: z.string().describe(`One of ${FACT_KINDS_TEXT}.`),
          fact: z.string().describe('The fact.'),
          visibility: z.string().describe('private or world.'),
          provenance: z.string().describe('Where it comes from.'),
          created_at: z.string().describe('When it was saved (ISO).'),
          forgotten: z.boolean().describe('Withdrawn: forgotten, or superseded by a newer fact.'),
        }),
      )
      .describe('The facts, newest first.'),
    count: z.number().int().describe('Number of facts.'),
  }),
  effect: READ_ONLY,
  access: 'any',
  async run(ctx, p) {
    if (p.entity !== undefined && p.entity !== null && p.entity.trim() === '') throw new BrainstreamError('invalid_params', 'entity must not be empty');
    return factsList(ctx.brain, ctx.caller, {
      source: p.source_id ?? null,
      entity: p.entity?.trim().toLowerCase() ?? null,
      includeForgotten: p.include_forgotten === true,
    });
  },
});
