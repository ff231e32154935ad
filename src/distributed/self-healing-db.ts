import { isConnectionLoss } from '../db/connection-loss.js';
import type { Db } from '../db/db.js';
import { logger } from '../logger.js';

export interface SelfHealingOptions {
  /** A statement outside a transaction that has not settled by then is given up. */
  statementWatchdogMs?: number;
  /** A transaction that has not settled by then is given up (the retry then waits on its row locks). */
  transactionWatchdogMs?: number;
  /** How long a replaced pool's healthy transactions get to finish before its connections are destroyed. */
  retireAfterMs?: number;
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
 * A PostgreSQL `Db` that survives connections the server drops (pg_terminate_backend, a restart,
 * a network cut). postgres.js 3.4.9 keeps a connection's pending write timer across a drop, so a
 * connection that lost its socket with a write queued never flushes again after reconnecting:
 * its statements stay queued for good (porsager/postgres#1154, #1208). Rather than trust such a
 * pool, the first connection loss an operation sees retires the whole pool: new work goes to a
 * fresh one at once, the old one gets `retireAfterMs` to finish healthy transactions and is then
 * destroyed. Watchdogs turn a statement or transaction that never settles into an error, so the
 * caller retries instead of waiting forever.
 */
export function selfHealingDb(open: () => Db, options: SelfHealingOptions = {}): Db {
  const statementMs = options.statementWatchdogMs ?? 30_000;
  const transactionMs = options.transactionWatchdogMs ?? 120_000;
  const retireMs = options.retireAfterMs ?? 30_000;
  const log = logger.child({ component: 'database' });
  let current = open();
  let closed = false;
  // Until something succeeded, a failure is the server being unreachable, which the caller reports.
  let everConnected = false;

  const retire = (pool: Db, err: unknown): void => {
    if (pool !== current || closed) return;
    current = open();
    if (everConnected) log.warn({ err }, 'a PostgreSQL connection was lost: the pool is replaced');
    setTimeout(() => void pool.close().catch(() => {}), retireMs).unref();
  };
  // Runs `op` on the pool of the moment; a connection loss retires that pool, and the error goes to the caller.
  const run = async <T>(op: (db: Db) => Promise<T>, what: string, ms: number): Promise<T> => {
    const pool = current;
    try {
      const result = await watched(op(pool), what, ms);
      everConnected = true;
      return result;
    } catch (err) {
      if (isConnectionLoss(err)) retire(pool, err);
      throw err;
    }
  };
  return {
    kind: 'postgres',
    query: (sql, params) => run((db) => db.query(sql, params), 'statement', statementMs),
    exec: (sql) => run((db) => db.exec(sql), 'statement', statementMs),
    transaction: (fn) => run((db) => db.transaction(fn), 'transaction', transactionMs),
    close: async () => {
      closed = true;
      await current.close();
    },
  };
}
