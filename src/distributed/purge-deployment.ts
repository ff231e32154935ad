import type { KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { countStale, purgeQuietly, type PurgeOptions, type PurgeResult } from '../../projections/volunteer-purge.js';
import { openDistributedDb } from './distributed-db.js';
import { kafkaPurgeTarget } from './distributed-purge.js';
import { withKafkaPublisher } from './kafka-publisher.js';

export interface DeploymentPurgeResult extends PurgeResult {
  /**
   * Stale volunteer events still there after the run (0 on a dry run): the projections had not
   * applied the decision yet (or a batch failed, which is logged). The next run deletes them.
   */
  awaiting: number;
}

/** A dry run counts only: it never publishes, so it needs no broker. */
const noLog = {
  append: (): Promise<void> => Promise.reject(new Error('a dry run publishes nothing')),
};

/**
 * `brainstream purge --kafka`: the retention purge of a distributed deployment, run once from
 * here (each `serve --kafka` member also runs it daily). The database is the deployment's
 * PostgreSQL (migrated if it is new); the decision goes to its `<prefix>volunteered` topic.
 */
export async function purgeDeployment(
  settings: KafkaSettings,
  database: { url: string; schema?: string },
  home: string | null,
  options: PurgeOptions,
): Promise<DeploymentPurgeResult> {
  const db = await openDistributedDb(database.url, { pool: 1, applicationName: 'brainstream-purge', schema: database.schema });
  try {
    if (options.dryRun) return { ...(await purgeQuietly(kafkaPurgeTarget(db, noLog, home), options)), awaiting: 0 };
    const result = await withKafkaPublisher(settings, (log) => purgeQuietly(kafkaPurgeTarget(db, log, home), options));
    return { ...result, awaiting: await countStale(db, 'context_volunteer_events', result.purgedBefore) };
  } finally {
    await db.close();
  }
}
