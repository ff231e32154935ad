import { BrainstreamError } from '../errors.js';
import { isConnectionLoss } from './connection-loss.js';

/** `PostgreSQL at host:port/database` of a URL, without user or password (safe to print). */
function describeServer(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

/** Reasons a server can refuse a session that no retry fixes (PostgreSQL error classes 08, 28, 3D, 57P03). */
const REFUSED = /^(08|28|3D|57P03)/;

/**
 * A failure to reach the server — refused, timed out, unknown host, refused login, missing
 * database, a server starting up — as one `database_unavailable` error naming the server;
 * anything else is returned as it was.
 */
export function asDatabaseUnavailable(err: unknown, url: string): unknown {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (!isConnectionLoss(err) && !REFUSED.test(code) && !/^(ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/.test(code)) return err;
  const why = typeof e?.message === 'string' && e.message !== '' ? e.message.split('\n')[0] : code;
  return new BrainstreamError('database_unavailable', `${describeServer(url)} is unreachable: ${why}`);
}
