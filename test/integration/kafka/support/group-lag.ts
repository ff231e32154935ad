import { Kafka, logLevel } from 'kafkajs';
import { measureGroupLag, type GroupLag } from '../../../../src/distributed/group-lag.js';
import { openPostgresDb } from '../../../../src/db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../../../../src/db/pg-schema.js';
import { WAIT_BUDGET_MS, waitFor } from './wait-for.js';

/** Waits until the serve group has processed everything published so far (lag 0 everywhere, outbox empty). */
export async function waitForZeroLag(args: { brokers: string[]; database: string; topicPrefix: string; group: string }, timeoutMs = WAIT_BUDGET_MS): Promise<GroupLag> {
  const db = openPostgresDb(args.database, { max: 1, schema: DEFAULT_PG_SCHEMA });
  const admin = new Kafka({ clientId: 'test-lag', brokers: args.brokers, logLevel: logLevel.NOTHING, retry: { retries: 10 } }).admin();
  try {
    await admin.connect();
    let last: GroupLag | null = null;
    return await waitFor(`zero lag of ${args.group}`, async () => {
      try {
        last = await measureGroupLag(db, admin, args.topicPrefix, args.group);
      } catch {
        return null; // the broker may be restarting
      }
      return last.total === 0 ? last : null;
    }, timeoutMs).catch((err: Error) => {
      throw new Error(`${err.message}; last: ${JSON.stringify(last)}`);
    });
  } finally {
    await admin.disconnect().catch(() => {});
    await db.close();
  }
}
