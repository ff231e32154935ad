import type { Db } from '../db/db.js';

/** Errors that mean the connection itself is gone (postgres.js codes, socket errors, FATAL/PANIC from the server). */
export function isConnectionLoss(err: unknown): boolean {
  const e = err as { code?: unknown; severity?: unknown } | null;
  if (typeof e?.code === 'string' && /^(CONNECTION_(CLOSED|ENDED|DESTROYED)|CONNECT_TIMEOUT|ECONNRESET|EPIPE|ETIMEDOUT|DB_WATCHDOG)$/.test(e.code)) return true;
  return e?.severity === 'FATAL' || e?.severity === 'PANIC';
}

export interface GuardOptions {
  /** How long a failed transaction's rejection is withheld after its connection died. */
  settleAfterMs?: number;
  /** A statement outside a transaction that has not settled by then is given up. */
  statementWatchdogMs?: number;
  /** A transaction that has not settled by then is given up (the retry then waits on its row locks). */
  transactionWatchdogMs?: number;
}

class WatchdogError extends Error {
  readonly code = 'DB_WATCHDOG';
  constructor(what: string, ms: number) {
    super(`the database did not answer a ${what} for ${ms / 1000} s (its connection was lost); given up`);
    this.name = 'WatchdogError';
  }
}

/** `work`, or a WatchdogError once `ms` have passed (the abandoned promise is left to settle on its own). */
function watched<T>(work: Promise<T>, what: string, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WatchdogError(what, ms)), ms);
  });
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A view of a postgres.js `Db` that survives connections the server drops (pg_terminate_backend,
 * a restart, a network cut). Two defects of postgres.js 3.4.9 meet such a drop:
 *
 * - A failed transaction callback is answered with ROLLBACK on the same connection; when the
 *   server has closed it, the write is deferred to a `setImmediate` that dereferences the null
 *   socket and throws outside any promise, killing the process (porsager/postgres#1154, #1208;
 *   fixes proposed in #1168, #1209). `sql.begin` already races the callback against the
 *   connection's close and rejects with that error, so the callback's own rejection is withheld
 *   for a while: the begin settles through the close and nothing is written. The rejection is
 *   released after `settleAfterMs` (by then the begin has settled, or the connection is alive
 *   and the rollback is safe).
 * - A statement handed to a connection that is reconnecting after a drop can stay queued and
 *   never settle. A watchdog gives such a statement or transaction up, so the caller retries
 *   instead of waiting forever; nothing of it reached the server, or, if the transaction was in
 *   fact alive, the retry waits for it on the partition's offset-row lock and skips its work.
 */
export function guardConnectionLoss(db: Db, options: GuardOptions = {}): Db {
  const settleAfterMs = options.settleAfterMs ?? 10_000;
  const statementMs = options.statementWatchdogMs ?? 30_000;
  const transactionMs = options.transactionWatchdogMs ?? 120_000;
  const hold = (err: unknown): Promise<never> =>
    new Promise((_, reject) => {
      setTimeout(() => reject(err), settleAfterMs).unref();
    });
  return {
    kind: db.kind,
    query: (sql, params) => watched(db.query(sql, params), 'statement', statementMs),
    exec: (sql) => db.exec(sql),
    transaction: (fn) =>
      watched(
        db.transaction((tx) => fn(tx).catch((err: unknown) => (isConnectionLoss(err) ? hold(err) : Promise.reject(err)))),
        'transaction',
        transactionMs,
      ),
    close: () => db.close(),
  };
}
