import { packageVersion } from '../package-version.js';
import { SourceId } from '../domain/event-schemas.js';
import { handleOperation } from './handle-operation.js';
import { handleResolve } from './handle-resolve.js';
import { handleTurnContext } from './handle-turn-context.js';
import { ERRORS, type PingResult } from '../serve-client/protocol.js';
import { REQUEST_SCHEMAS, type RequestKind } from '../serve-client/request-schemas.js';
import type { ServeDeps } from './serve-deps.js';
import type { Connection, RequestHandler } from './socket-server.js';

/** What this build's serve answers; doctor reads `core_guard` (writes go through the same guarded commands). */
const CAPABILITIES = ['turn_context', 'resolve', 'core_block', 'command', 'operation', 'core_guard'];

const STARTED_AT = new Date().toISOString();

const isKind = (k: unknown): k is RequestKind => typeof k === 'string' && Object.hasOwn(REQUEST_SCHEMAS, k);

/**
 * Dispatches an authenticated request by kind. Requests that arrive while the owner is still
 * starting wait for it (`deps`), so a client that found the socket is never turned away.
 */
export function requestRouter(deps: Promise<ServeDeps>): RequestHandler {
  return async (raw: Record<string, unknown>, conn: Connection) => {
    if (!isKind(raw.kind)) {
      return conn.respond({ ok: false, error: ERRORS.unknownKind, message: `unknown request kind ${JSON.stringify(raw.kind)}` });
    }
    const parsed = REQUEST_SCHEMAS[raw.kind].safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return conn.respond({ ok: false, error: ERRORS.invalidRequest, message: `${issue?.path.join('.') || raw.kind}: ${issue?.message ?? 'invalid'}` });
    }
    const d = await deps;
    const req = parsed.data;
    switch (req.kind) {
      case 'turn_context':
        return handleTurnContext(req, conn, d);
      case 'resolve':
        return handleResolve(req, conn, d);
      case 'core_block': {
        const sourceId = req.source_id ?? 'default';
        if (!SourceId.safeParse(sourceId).success) {
          return conn.respond({ ok: false, error: ERRORS.invalidRequest, message: `source_id: not a source id: ${JSON.stringify(sourceId)}` });
        }
        return conn.respond({ ok: true, ...(await d.core.block(sourceId)) });
      }
      case 'ping': {
        const ping: PingResult = { role: d.role, pid: process.pid, capabilities: CAPABILITIES, version: packageVersion(), started_at: STARTED_AT };
        return conn.respond({ ok: true, ...ping });
      }
      case 'command':
        return d.commands.run(req, conn);
      case 'operation':
        return handleOperation(req, conn, d);
    }
  };
}
