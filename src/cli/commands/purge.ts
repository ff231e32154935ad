import type { Command } from 'commander';
import type { DeploymentPurgeResult } from '../../distributed/purge-deployment.js';
import { BrainstreamError, UsageError } from '../../errors.js';
import { retentionDays } from '../../../projections/purge-schedule.js';
import { purgeQuietly, type PurgeOptions, type PurgeResult } from '../../../projections/volunteer-purge.js';
import { RANGES } from '../../context/number-ranges.js';
import { parseIntegerFlag, parseRangedFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { databaseUrl, kafkaSettings, pgSchema, SCHEMA_OPTION_HELP, type KafkaFlags } from '../kafka-flags.js';
import { errLine, outJson, outLine } from '../output.js';
import { progressBar } from '../progress.js';
import { withBrain } from '../with-brain.js';

interface Flags extends KafkaFlags {
  ttlDays?: string;
  dryRun?: boolean;
  batchSize?: string;
  json?: boolean;
}

type RunOptions = Omit<PurgeOptions, 'onProgress'>;

/** Runs a purge with a progress bar on stderr. */
async function withProgress<R extends PurgeResult>(run: (options: PurgeOptions) => Promise<R>, options: RunOptions): Promise<R> {
  const bar = progressBar('purge');
  try {
    return await run({ ...options, onProgress: (done, total) => bar.update(done, total) });
  } finally {
    bar.stop();
  }
}

/**
 * The purge of a distributed deployment (`--kafka`): the decision is published to its volunteered
 * topic and rows go from its PostgreSQL once the projections applied it — usually at the next run.
 */
async function purgeDistributed(flags: Flags, home: string, options: RunOptions): Promise<DeploymentPurgeResult> {
  const settings = kafkaSettings(flags);
  const url = databaseUrl(flags);
  const schema = pgSchema(flags);
  // Kafka and PostgreSQL clients are loaded only here: the embedded purge never pays for them.
  const { purgeDeployment } = await import('../../distributed/purge-deployment.js');
  const result = await withProgress((o) => purgeDeployment(settings, { url, schema }, home, o), options);
  if (result.awaiting > 0) {
    errLine(`brainstream: purge: ${result.awaiting} stale volunteer event(s) remain until the projections apply the purge; ` +
      'the next run deletes them (every serve --kafka runs it daily; or run purge again once `brainstream lag` is 0)');
  }
  return result;
}

export function registerPurge(program: Command): void {
  program
    .command('purge')
    .description('delete volunteered events older than the retention (memory.volunteer.retention_days, default 90)')
    .option('--ttl-days <n>', 'retention in days for this run (1..36500)')
    .option('--dry-run', 'count what would be deleted; delete nothing')
    .option('--batch-size <n>', 'rows per transaction (default 1000)')
    .option('--json', 'print {"purged":n}')
    .option('--kafka [brokers]', 'purge a distributed deployment on these Kafka brokers (default: KAFKA_BROKERS) instead of the embedded brain')
    .option('--topic-prefix <prefix>', 'with --kafka: the deployment’s topic prefix (default: brainstream.)')
    .option('--database <url>', 'with --kafka: the deployment’s PostgreSQL (default: DATABASE_URL)')
    .option('--schema <name>', `with --kafka: ${SCHEMA_OPTION_HELP}`)
    .action(async (flags: Flags, cmd: Command) => {
      const ctx = commandContext(cmd);
      if (ctx.caller.kind === 'remote') throw new BrainstreamError('owner_only', 'purge is an owner-only command');
      const ttl = parseRangedFlag('--ttl-days', flags.ttlDays, RANGES.days);
      const batchSize = parseIntegerFlag('--batch-size', flags.batchSize);
      if (batchSize !== undefined && batchSize < 1) throw new UsageError(`--batch-size expects a whole number of at least 1, got ${JSON.stringify(flags.batchSize)}`);
      const ttlDays = ttl ?? retentionDays(ctx.home);
      if (flags.kafka === undefined && (flags.topicPrefix !== undefined || flags.database !== undefined || flags.schema !== undefined)) {
        throw new UsageError('--topic-prefix, --database and --schema name a distributed deployment: add --kafka');
      }
      const options = { ttlDays, batchSize, dryRun: flags.dryRun === true };
      const distributed = flags.kafka !== undefined ? await purgeDistributed(flags, ctx.home, options) : null;
      const result = distributed ?? (await withBrain(ctx.home, (brain) => withProgress((o) => purgeQuietly(brain, o), options)));
      if (flags.dryRun) {
        const would = result.wouldPurge ?? 0;
        if (ctx.json) outJson({ purged: 0, would_purge: would, dry_run: true, purged_before: result.purgedBefore });
        else outLine(`would purge ${would} stale volunteer event(s) (volunteered before ${result.purgedBefore})`);
        return;
      }
      if (ctx.json) outJson(distributed ? { purged: result.purged, awaiting_projections: distributed.awaiting } : { purged: result.purged });
      else outLine(`purged ${result.purged} stale volunteer event(s)`);
    });
}
