import type { z } from 'zod';
import { BrainstreamError } from '../errors.js';
import { logger } from '../logger.js';
import type { Caller } from '../caller.js';
import { OPERATIONS } from './operation-list.js';
import type { OpContext, Operation } from './operations/operation.js';

export type { OpContext, Operation } from './operations/operation.js';

const byName: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((op) => [op.name, op]));

export const findOperation = (name: string): Operation | undefined => byName.get(name);

/** The names of every operation, sorted. */
export const operationNames = (): string[] => [...byName.keys()].sort();

/** The first problem, naming the field (`items.1.kind`) and what is expected there. */
function describeIssues(error: z.ZodError): { message: string; field?: string } {
  const first = error.issues[0];
  if (!first) return { message: 'invalid params' };
  const path = first.path.map(String);
  if (first.code === 'unrecognized_keys') {
    const field = [...path, first.keys[0]].join('.');
    return { message: `${field}: unknown parameter (not in the schema)`, field };
  }
  const field = path.length > 0 ? path.join('.') : undefined;
  if (field && first.code === 'invalid_type' && first.message.endsWith('received undefined')) {
    return { message: `${field}: required (expected ${first.expected})`, field };
  }
  return { message: field ? `${field}: ${first.message}` : first.message, ...(field ? { field } : {}) };
}

/**
 * Runs a named operation as `ctx.caller`: unknown names → `unknown_operation`, an owner-only
 * operation asked for by a remote caller → `owner_only`, params that do not validate →
 * `invalid_params`; the operation's own refusals pass through unchanged. Every surface runs
 * operations through here, so the access rule is enforced in this one place.
 */
export async function runOperation(ctx: OpContext, name: string, rawParams: unknown): Promise<unknown> {
  const op = byName.get(name);
  if (!op) throw new BrainstreamError('unknown_operation', `no operation ${JSON.stringify(name)} (known: ${operationNames().join(', ')})`);
  checkAccess(op, ctx.caller);
  return op.run(ctx, checkParams(op, rawParams));
}

/** Refuses a caller the operation's access rule leaves out (`owner_only` for a remote caller). */
export function checkAccess(op: Operation, caller: Caller): void {
  if (op.access === 'owner' && caller.kind !== 'owner') {
    throw new BrainstreamError('owner_only', `${op.name} is an owner-only operation; ask the user to run it on the brain host`);
  }
}

/** The operation's params, parsed; or `invalid_params` naming the field and what it expects. */
export function checkParams<S extends z.ZodType>(op: Operation<S>, rawParams: unknown): z.output<S> {
  const parsed = op.params.safeParse(rawParams ?? {});
  if (!parsed.success) {
    const { message, field } = describeIssues(parsed.error);
    throw new BrainstreamError('invalid_params', `${op.name}: ${message}`, field ? { field } : {});
  }
  return parsed.data;
}

export interface ErrorEnvelope {
  error: string;
  message: string;
  [detail: string]: unknown;
}

/** The JSON error envelope of a failed operation: `{error, message, …details}`. */
export function errorEnvelope(err: unknown): ErrorEnvelope {
  if (err instanceof BrainstreamError) return { error: err.code, message: err.message, ...err.details };
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[a-z_]+$/.test(code)) return { error: code, message: err instanceof Error ? err.message : String(err) };
  logger.error({ err }, 'operation failed');
  return { error: 'internal_error', message: err instanceof Error ? err.message.split('\n')[0] : String(err) };
}
