import type { z } from 'zod';
import { BrainstreamError } from '../errors.js';
import { logger } from '../logger.js';
import { contextPackOp } from './operations/context-pack.js';
import { coreStatusOp } from './operations/core-status.js';
import type { OpContext, Operation } from './operations/operation.js';
import { deletePageOp, getPageOp, listPagesOp, putPageOp } from './operations/page-operations.js';
import { volunteerContextOp } from './operations/volunteer-context.js';

export type { OpContext, Operation } from './operations/operation.js';

const operations = new Map<string, Operation>();

/** Adds an operation (other modules register theirs, e.g. `remember`/`forget` of core memory). */
export function registerOperation(op: Operation): void {
  operations.set(op.name, op as Operation);
}

for (const op of [volunteerContextOp, getPageOp, putPageOp, deletePageOp, listPagesOp, contextPackOp, coreStatusOp] as Operation[]) {
  registerOperation(op);
}

export const findOperation = (name: string): Operation | undefined => operations.get(name);
export const operationNames = (): string[] => [...operations.keys()].sort();

function describeIssues(error: z.ZodError): { message: string; field?: string } {
  const first = error.issues[0];
  const field = first && first.path.length > 0 ? first.path.map(String).join('.') : undefined;
  return { message: field ? `${field}: ${first.message}` : (first?.message ?? 'invalid params'), ...(field ? { field } : {}) };
}

/**
 * Runs a named operation as `ctx.caller`: unknown names → `unknown_operation`, params that do
 * not validate → `invalid_params`; the operation's own refusals pass through unchanged.
 */
export async function runOperation(ctx: OpContext, name: string, rawParams: unknown): Promise<unknown> {
  const op = operations.get(name);
  if (!op) throw new BrainstreamError('unknown_operation', `no operation ${JSON.stringify(name)} (known: ${operationNames().join(', ')})`);
  const parsed = op.params.safeParse(rawParams ?? {});
  if (!parsed.success) {
    const { message, field } = describeIssues(parsed.error);
    throw new BrainstreamError('invalid_params', `${name}: ${message}`, field ? { field } : {});
  }
  return op.run(ctx, parsed.data);
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
