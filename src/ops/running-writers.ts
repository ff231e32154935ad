import type { RunningWriter } from '../core-memory/core-doctor.js';
import { logger } from '../logger.js';
import type { PingResult } from '../serve-client/protocol.js';
import { request, ServeRequestError } from '../serve-client/socket-client.js';

/**
 * The long-running writer of `home` (a serve, or a watch serving the socket), as its ping
 * describes it. A writer from a build before the core guard does not advertise `core_guard`, so
 * doctor can ask for a restart. Only the socket owner is visible: the embedded brain allows one
 * writer process at a time, and every other command goes through it.
 */
export async function runningWriters(home: string, timeoutMs = 1000): Promise<RunningWriter[]> {
  try {
    const reply = await request<PingResult>(home, { kind: 'ping' }, { timeoutMs });
    if (!reply.ok) return [];
    return [{ kind: reply.role, pid: reply.pid, capabilities: Array.isArray(reply.capabilities) ? reply.capabilities : [] }];
  } catch (err) {
    if (!(err instanceof ServeRequestError && err.reason === 'no_serve')) logger.debug({ err }, 'ping for doctor failed');
    return [];
  }
}
