import type { Db } from '../db/db.js';

/** Errors that mean the connection itself is gone (postgres.js codes, socket errors, FATAL/PANIC from the server). */
export function isConnectionLoss(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  if (typeof e?.code === 'string' && /^(CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(e.code)) return true;
  return e?.severity === 'FATAL' || e?.severity === 'PANIC';
}

/**
 * A view of a postgres.js `Db` whose transactions never write to a connection that died.
 *
 * postgres.js 3.4.9 answers a failed transaction callback with ROLLBACK on the same connection;
 * when the server has closed it (pg_terminate_backend, a restart, a network cut), that write is
 * deferred to a `setImmediate` that dereferences the null socket and throws outside any promise,
 * killing the process (porsager/postgres#1154, #1208; fixes proposed in #1168, #1209). `sql.begin`
 * already races the callback against the connection's close and rejects with that error, so the
 * callback's own rejection is withheld for a while: the begin settles through the close, nothing
 * is written. The rejection is released after `settleAfterMs` (by then the begin has settled, or
 * the connection is alive and the rollback is safe).
 */
export function guardConnectionLoss(db: Db, settleAfterMs = 10_000): Db {
  const hold = (err: unknown): Promise<never> =>
    new Promise((_, reject) => {
      setTimeout(() => reject(err), settleAfterMs).unref();
    });
  return {
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction((tx) => fn(tx).catch((err: unknown) => (isConnectionLoss(err) ? hold(err) : Promise.reject(err)))),
    close: () => db.close(),
  };
}
