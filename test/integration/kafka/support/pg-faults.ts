import postgres from 'postgres';
import { DEFAULT_PG_SCHEMA } from '../../../../src/db/pg-schema.js';
import { waitFor } from './wait-for.js';

/** Connections that see a deployment's tables (its schema first). */
const connect = (url: string): postgres.Sql => postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: DEFAULT_PG_SCHEMA } });

/** A table lock held by a test transaction until `release()`: serve batches that write the table wait mid-transaction. */
export async function holdTableLock(url: string, table: string): Promise<{ release(): Promise<void> }> {
  const sql = connect(url);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  let failed!: (err: unknown) => void;
  const isLocked = new Promise<void>((resolve, reject) => ((locked = resolve), (failed = reject)));
  const done = sql
    .begin(async (tx) => {
      await tx.unsafe(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
      locked();
      await released;
      // Roll back: the lock was the only point.
      throw new Error('released');
    })
    // A lock that could not be taken fails the caller instead of leaving it waiting for good.
    .catch((err: unknown) => failed(err));
  await isLocked.catch(async (err: unknown) => {
    await sql.end({ timeout: 5 });
    throw err;
  });
  return {
    async release() {
      release();
      await done;
      await sql.end({ timeout: 5 });
    },
  };
}

/** pids of a serve process's PostgreSQL backends (its application_name starts with `brainstream-serve <pid>`). */
export async function serveBackends(url: string, servePid: number, onlyWaitingOnLocks = false): Promise<number[]> {
  const sql = connect(url);
  try {
    const rows = await sql<{ pid: number }[]>`
      SELECT pid FROM pg_stat_activity
       WHERE datname = current_database() AND application_name LIKE ${`brainstream-serve ${servePid} %`}
         AND (${!onlyWaitingOnLocks} OR wait_event_type = 'Lock')`;
    return rows.map((r) => r.pid);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Waits until a batch of the serve process is blocked inside its transaction on a lock. */
export async function waitUntilBlocked(url: string, servePid: number): Promise<void> {
  await waitFor(`a batch of serve ${servePid} to wait on a lock`, async () => (await serveBackends(url, servePid, true)).length > 0);
}

/** Drops every PostgreSQL connection of the serve process (pg_terminate_backend). */
export async function terminateBackends(url: string, servePid: number): Promise<number> {
  const pids = await serveBackends(url, servePid);
  const sql = connect(url);
  try {
    for (const pid of pids) await sql`SELECT pg_terminate_backend(${pid})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
  return pids.length;
}
