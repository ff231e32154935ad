import { runWithIo, type CliIo } from '../command-io.js';
import { remoteCaller } from '../caller.js';
import { localOpContext } from '../ops/operations/local-op-context.js';
import { errorEnvelope, runOperation } from '../ops/registry.js';
import type { OperationParams } from '../serve-client/request-schemas.js';
import type { ServeDeps } from './serve-deps.js';
import type { Connection } from './socket-server.js';

/**
 * Where the operation runs: the client's settings instead of serve's (as for a forwarded
 * command); nothing it might print reaches anyone (the answer is the result alone).
 */
const operationIo = (env: Record<string, string>): CliIo => ({
  stdout: () => {},
  stderr: () => {},
  stdin: null,
  stdinIsTTY: false,
  stderrIsTTY: false,
  forwarded: true,
  env: { ...env },
});

/**
 * An `operation` request: runs the named operation on serve's brain and answers its result, or
 * its error envelope as the error response. The caller is always remote: holding the socket
 * makes a client the owner's process, not its callers the owner (an MCP server's clients are
 * remote), so no request can raise itself to owner.
 */
export async function handleOperation(req: OperationParams, conn: Connection, d: ServeDeps): Promise<void> {
  const caller = remoteCaller(req.caller.source, req.caller.grant, req.caller.identity);
  try {
    const result = await runWithIo(operationIo(req.env ?? {}), () => runOperation(localOpContext(d.brain, caller, d.home), req.op, req.params));
    return await conn.respond({ ok: true, result });
  } catch (err) {
    return conn.respond({ ...errorEnvelope(err), ok: false });
  }
}
