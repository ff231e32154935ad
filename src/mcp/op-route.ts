import type { Caller } from '../caller.js';
import { forwardedEnv } from '../serve/forwarded-env.js';
import { request, ServeRequestError } from '../serve-client/socket-client.js';

/** How long a forwarded operation may take inside serve before the tool call gives up. */
const FORWARD_TIMEOUT_MS = 60_000;

export type OpOutcome = { ok: true; result: unknown } | { ok: false; envelope: { error: string; message: string; [k: string]: unknown } };

/** The `call` command line that runs `op` inside serve exactly as this remote caller. */
function forwardedCallArgv(home: string, caller: Caller, op: string, params: unknown): string[] {
  return [
    '--home', home,
    '--as', 'remote',
    ...(caller.grant ? ['--grant', caller.grant.join(',')] : []),
    'call', op,
    '--source', caller.source,
    '--identity', caller.identity,
    '--params', JSON.stringify(params ?? {}),
  ];
}

/**
 * Runs the operation inside a running serve (command forwarding of `call`), so the MCP server
 * never holds the brain. Null when no serve answers: the caller opens the brain itself.
 */
export async function runViaServe(home: string, caller: Caller, op: string, params: unknown): Promise<OpOutcome | null> {
  let res;
  try {
    res = await request<{ stdout: string; stderr: string; exitCode: number }>(
      home,
      { kind: 'command', argv: forwardedCallArgv(home, caller, op, params), env: forwardedEnv(process.env), cwd: process.cwd(), stdin: '' },
      { timeoutMs: FORWARD_TIMEOUT_MS },
    );
  } catch (err) {
    if (err instanceof ServeRequestError && err.reason === 'no_serve') return null;
    throw err;
  }
  if (res.ok !== true) {
    if (res.error === 'not_forwardable') return null;
    return { ok: false, envelope: { error: res.error, message: res.message ?? 'serve refused the operation' } };
  }
  const line = res.stdout.trim().split('\n').pop() ?? '';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const message = res.stderr.trim().split('\n')[0] || 'the operation printed no result';
    return { ok: false, envelope: { error: 'internal_error', message } };
  }
  if (res.exitCode === 0) return { ok: true, result: value };
  return { ok: false, envelope: value as { error: string; message: string } };
}
