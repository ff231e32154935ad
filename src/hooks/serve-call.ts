import type { ServeRequest } from '../serve-client/protocol.js';
import { request, ServeRequestError } from '../serve-client/socket-client.js';

export type ServeFailure = 'no_serve' | 'ipc_unavailable' | 'deadline' | 'unauthorized' | 'unknown_source';

export type ServeReply = { ok: true; body: Record<string, unknown> } | { ok: false; reason: ServeFailure };

/** One request to serve, every failure mapped to a degraded reason of the hook lane. */
export async function callServe(home: string, payload: ServeRequest, timeoutMs: number): Promise<ServeReply> {
  try {
    const res = await request<Record<string, unknown>>(home, payload, { timeoutMs });
    if (res.ok === true) return { ok: true, body: res as Record<string, unknown> };
    const error = (res as { error?: unknown }).error;
    return { ok: false, reason: error === 'unauthorized' || error === 'unknown_source' ? error : 'ipc_unavailable' };
  } catch (err) {
    if (err instanceof ServeRequestError) {
      return { ok: false, reason: err.reason === 'no_serve' || err.reason === 'deadline' ? err.reason : 'ipc_unavailable' };
    }
    return { ok: false, reason: 'ipc_unavailable' };
  }
}
