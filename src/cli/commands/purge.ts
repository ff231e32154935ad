import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { RANGES } from '../../context/number-ranges.js';
import { parseIntegerFlag, parseRangedFlag } from '../flags.js';
import { commandContext } from '../globals.js';
import { databaseUrl, kafkaSettings, pgSchema, SCHEMA_OPTION_HELP, type KafkaFlags } from '../kafka-flags.js';
import { errLine, outJson, outLine } from '../output.js';
import { runCommandOperation } from '../run-operation.js';

interface Flags extends KafkaFlags {
  ttlDays?: string;
  dryRun?: boolean;
  batchSize?: string;
  json?: boolean;
}

interface PurgeOutcome {
  purged: number;
  would_purge?: number;
  purged_before: string;
  awaiting_projections?: number;
}

/**
 * The deployment a `--kafka` purge works on: the decision is published to its volunteered topic
 * and rows go from its PostgreSQL once the projections applied it — usually at the next run.
 */
function deploymentOf(flags: Flags): { brokers: string[]; topic_prefix: string; database: string; schema: string } {
  const settings = kafkaSettings(flags);
  return { brokers: settings.brokers, topic_prefix: settings.topicPrefix, database: databaseUrl(flags), schema: pgSchema(flags) };
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
      const ttl = parseRangedFlag('--ttl-days', flags.ttlDays, RANGES.days);
      const batchSize = parseIntegerFlag('--batch-size', flags.batchSize);
      if (batchSize !== undefined && batchSize < 1) throw new UsageError(`--batch-size expects a whole number of at least 1, got ${JSON.stringify(flags.batchSize)}`);
      if (flags.kafka === undefined && (flags.topicPrefix !== undefined || flags.database !== undefined || flags.schema !== undefined)) {
        throw new UsageError('--topic-prefix, --database and --schema name a distributed deployment: add --kafka');
      }
      const distributed = flags.kafka !== undefined;
      const result = await runCommandOperation<PurgeOutcome>(ctx, 'purge', {
        ttl_days: ttl,
        batch_size: batchSize,
        dry_run: flags.dryRun === true,
        ...(distributed ? { deployment: deploymentOf(flags) } : {}),
      });
      const awaiting = result.awaiting_projections ?? 0;
      if (!flags.dryRun && awaiting > 0) {
        errLine(`brainstream: purge: ${awaiting} stale volunteer event(s) remain until the projections apply the purge; ` +
          'the next run deletes them (every serve --kafka runs it daily; or run purge again once `brainstream lag` is 0)');
      }
      if (flags.dryRun) {
        const would = result.would_purge ?? 0;
        if (ctx.json) outJson({ purged: 0, would_purge: would, dry_run: true, purged_before: result.purged_before });
        else outLine(`would purge ${would} stale volunteer event(s) (volunteered before ${result.purged_before})`);
        return;
      }
      if (ctx.json) outJson(distributed ? { purged: result.purged, awaiting_projections: awaiting } : { purged: result.purged });
      else outLine(`purged ${result.purged} stale volunteer event(s)`);
    });
}
