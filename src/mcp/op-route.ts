import type { Caller } from '../caller.js';
import type { ErrorEnvelope } from '../ops/registry.js';
import { forwardedEnv } from '../serve/forwarded-env.js';
import { ERRORS, type OperationRequest, type OperationResult } from '../serve-client/protocol.js';
import { request, ServeRequestError } from '../serve-client/socket-client.js';

/** How long a forwarded operation may take inside serve before the tool call gives up. */
const FORWARD_TIMEOUT_MS = 60_000;

export type OpOutcome = { ok: true; result: unknown } | { ok: false; envelope: ErrorEnvelope };

/** The typed request that runs `op` inside serve as this remote caller. */
export function operationRequest(caller: Caller, op: string, params: unknown, env: NodeJS.ProcessEnv = process.env): OperationRequest {
  return {
    kind: 'operation',
    op,
    params: params ?? {},
    caller: { identity: caller.identity, source: caller.source, grant: caller.grant ?? [caller.source] },
    env: forwardedEnv(env),
  };
}

/**
 * Runs the operation inside a running serve (an `operation` request), so the MCP server never
 * holds the brain. Null when no serve (of this protocol) answers: the caller opens the brain itself.
 */
export async function runViaServe(home: string, caller: Caller, op: string, params: unknown): Promise<OpOutcome | null> {
  let res;
  try {
    res = await request<OperationResult>(home, operationRequest(caller, op, params), { timeoutMs: FORWARD_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof ServeRequestError && err.reason === 'no_serve') return null;
    throw err;
  }
  if (res.ok) return { ok: true, result: res.result };
  // A serve of an older installation knows no operation requests: as good as none (autostart
  // replaces a serve of another version).
  if (res.error === ERRORS.unknownKind) return null;
  // The error response is the operation's envelope (or serve's own refusal), framed by `v` and `ok`.
  const { v: _v, ok: _ok, ...rest } = res;
  return { ok: false, envelope: { ...rest, error: res.error, message: res.message ?? 'serve refused the operation' } };
}
