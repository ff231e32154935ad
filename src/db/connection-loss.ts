/** Errors that mean the connection itself is gone (postgres.js codes, socket errors, FATAL/PANIC from the server, a watchdog). */
export function isConnectionLoss(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  if (typeof e?.code === 'string' && /^(CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|DB_WATCHDOG)$/.test(e.code)) return true;
  return e?.severity === 'FATAL' || e?.severity === 'PANIC';
}
