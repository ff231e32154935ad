import type { z } from 'zod';
import { BrainstreamError } from '../errors.js';
import { logger } from '../logger.js';
import { checkAccess } from './access.js';
import { OPERATIONS } from './operation-list.js';
import { localOpContext } from './operations/local-op-context.js';
import type { AnyOperation, HostOpContext, OpContext, OperationDeclaration } from './operations/operation.js';

export type { AnyOperation, HostOpContext, OpContext, Operation } from './operations/operation.js';
export { checkAccess } from './access.js';

const byName: ReadonlyMap<string, AnyOperation> = new Map(OPERATIONS.map((op) => [op.name, op]));

export const findOperation = (name: string): AnyOperation | undefined => byName.get(name);

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
 * The operation `name` with its params, once `caller` may run it: unknown names →
 * `unknown_operation`, an owner-only operation asked for by a remote caller → `owner_only`,
 * params that do not validate → `invalid_params`. Every surface runs operations through here, so
 * the access rule is enforced in this one place, before anything of the call is looked at.
 */
function admit(name: string, caller: OpContext['caller'], rawParams: unknown): { op: AnyOperation; params: unknown } {
  const op = byName.get(name);
  if (!op) throw new BrainstreamError('unknown_operation', `no operation ${JSON.stringify(name)} (known: ${operationNames().join(', ')})`);
  checkAccess(op, caller);
  return { op, params: checkParams(op, rawParams) };
}

/** Runs a named operation as `ctx.caller` on the brain `ctx` holds; its own refusals pass through unchanged. */
export async function runOperation(ctx: OpContext, name: string, rawParams: unknown): Promise<unknown> {
  const { op, params } = admit(name, ctx.caller, rawParams);
  if (op.runsOn !== 'host') return op.run(ctx, params);
  return op.run({ caller: ctx.caller, home: ctx.home, progress: ctx.progress, withBrain: (fn) => fn(ctx.brain) }, params);
}

/**
 * Runs a named operation as `host.caller` on the brain's host: the brain is opened through
 * `host.withBrain` only for an operation that works on it, and only once the call is admitted.
 */
export async function runHostOperation(host: HostOpContext, name: string, rawParams: unknown): Promise<unknown> {
  const { op, params } = admit(name, host.caller, rawParams);
  if (op.runsOn === 'host') return op.run(host, params);
  return host.withBrain((brain) => op.run({ ...localOpContext(brain, host.caller, host.home), progress: host.progress }, params));
}

/** The operation's params, parsed; or `invalid_params` naming the field and what it expects. */
export function checkParams<S extends z.ZodType>(op: OperationDeclaration<S>, rawParams: unknown): z.output<S> {
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
