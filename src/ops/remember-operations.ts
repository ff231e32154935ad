import { z } from 'zod';
import { BrainstreamError } from '../errors.js';
import { factsList } from './facts-list.js';
import { forget } from './forget.js';
import { defineOperation } from './operations/operation.js';
import { registerOperation } from './registry.js';
import { remember } from './remember.js';

/**
 * `remember`: params are checked by `validateRememberParams` (its messages name the item index),
 * so the schema here only requires an object.
 */
export const rememberOp = defineOperation({
  name: 'remember',
  description:
    'Save facts that must survive: either one fact (fact, provenance, optional entity, kind, ttl, visibility, supersedes) or items: 1–20 such objects, each saved as its own write with its own status (partial: true when some failed). Pass request_id to make retries safe.',
  params: z.looseObject({}),
  run: (ctx, p) => remember(ctx.brain, ctx.caller, p, ctx.now ? { now: ctx.now() } : {}),
});

/** `forget`: withdraws a remembered fact by id. */
export const forgetOp = defineOperation({
  name: 'forget',
  description: 'Withdraw a remembered fact by its id (struck from its page; no longer active). Optional reason.',
  params: z.object({ id: z.union([z.string(), z.number()]), reason: z.string().nullable().optional() }),
  run: (ctx, p) => forget(ctx.brain, ctx.caller, p.id, p.reason ?? undefined, ctx.now ? { now: ctx.now() } : {}),
});

/** `list_facts`: the stored facts the caller may read, newest first. */
export const listFactsOp = defineOperation({
  name: 'list_facts',
  description: 'List remembered facts you can read, newest first (optionally of one entity or source).',
  params: z.object({
    entity: z.string().nullable().optional(),
    source_id: z.string().nullable().optional(),
    include_forgotten: z.boolean().nullable().optional(),
  }),
  async run(ctx, p) {
    if (p.entity !== undefined && p.entity !== null && p.entity.trim() === '') throw new BrainstreamError('invalid_params', 'entity must not be empty');
    return factsList(ctx.brain, ctx.caller, {
      source: p.source_id ?? null,
      entity: p.entity?.trim().toLowerCase() ?? null,
      includeForgotten: p.include_forgotten === true,
    });
  },
});

/** Registers the core-memory write operations (MCP, serve and `call` share the registry). */
export function registerMemoryOperations(): void {
  for (const op of [rememberOp, forgetOp, listFactsOp]) registerOperation(op);
}
