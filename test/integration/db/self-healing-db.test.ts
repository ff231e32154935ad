// PostgreSQL connections dropped under a pool's feet (pg_terminate_backend, as a restart or a
// network cut does): transactions parked on a lock and statements in flight fail with a
// connection-loss error, the process survives (postgres.js would otherwise write a ROLLBACK to
// the dead socket from a setImmediate and crash), and the next work succeeds on a fresh pool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLoss } from '../../../src/db/connection-loss.js';
import type { Db } from '../../../src/db/db.js';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { withApplicationName } from '../../../src/distributed/distributed-db.js';
import { selfHealingDb } from '../../../src/distributed/self-healing-db.js';
import { holdTableLock } from '../kafka/support/pg-faults.js';
import { waitFor } from '../kafka/support/wait-for.js';
import { servicesOrSkip } from '../../support/services.js';

const svc = await servicesOrSkip({ postgres: true });
const APP = `bs-self-healing-${process.pid}`;

describe.skipIf(svc.skip)('self-healing PostgreSQL pool', () => {
  let admin: Db;
  let db: Db;

  beforeAll(async () => {
    admin = openPostgresDb(svc.pg.url, { max: 1 });
    // In public: the lock holder's connection searches the deployment schema first.
    await admin.exec('CREATE TABLE public.t (round int NOT NULL, n int NOT NULL)');
    db = selfHealingDb(() => openPostgresDb(withApplicationName(svc.pg.url, APP), { max: 6 }), { retireAfterMs: 1000 });
  });

  afterAll(async () => {
    await db?.close();
    await admin?.close();
  });

  /** The pool's backends running a statement now (`waiting`: those parked on a lock). */
  const active = async (waiting: boolean): Promise<number[]> =>
    (await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND state = 'active' AND ($2 = false OR wait_event_type = 'Lock')`,
      [APP, waiting],
    )).map((r) => r.pid);
  /** Every backend of the pool, idle ones included. */
  const backends = async (): Promise<number[]> =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [APP])).map((r) => r.pid);

  it('fails parked transactions and in-flight statements with a connection loss, then works again; 15 rounds', async () => {
    for (let round = 0; round < 15; round++) {
      const lock = await holdTableLock(svc.pg.url, 'public.t');
      let outcomes: PromiseSettledResult<unknown>[];
      try {
        const parked = [1, 2, 3].map((n) =>
          db.transaction(async (tx) => {
            await tx.query('SELECT pg_sleep(0.01)');
            await tx.query('INSERT INTO public.t (round, n) VALUES ($1, $2)', [round, n]);
            return tx.query('SELECT 1 AS one');
          }),
        );
        await waitFor('three transactions parked on the lock', async () => (await active(true)).length === 3);
        // Statements in flight on the other connections when they are dropped.
        const inFlight = [1, 2].map(() => db.query('SELECT pg_sleep(5)'));
        const settled = Promise.allSettled([...parked, ...inFlight]);
        // Running, not merely connected: an idle connection left from an earlier round is no proof
        // that the sleeps were sent, and a sleep sent only after the drop would succeed.
        await waitFor('the statements to run', async () => (await active(false)).length >= 5);
        for (const pid of await backends()) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        outcomes = await settled;
      } finally {
        await lock.release();
      }
      for (const o of outcomes) {
        expect(o.status).toBe('rejected');
        expect(isConnectionLoss((o as PromiseRejectedResult).reason), String((o as PromiseRejectedResult).reason)).toBe(true);
      }
      // Nothing of the dropped transactions was committed; the next ones are.
      await Promise.all([1, 2, 3].map((n) => db.transaction((tx) => tx.query('INSERT INTO public.t (round, n) VALUES ($1, $2)', [round, n]))));
      const rows = await db.query<{ n: number }>('SELECT n FROM public.t WHERE round = $1 ORDER BY n', [round]);
      expect(rows.map((r) => r.n)).toEqual([1, 2, 3]);
    }
  });
});
