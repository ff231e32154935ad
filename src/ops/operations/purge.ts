import { z } from 'zod';
import { RANGES, rangedNumber } from '../../context/number-ranges.js';
import { retentionDays } from '../../../projections/purge-schedule.js';
import { purgeQuietly, type PurgeOptions, type PurgeResult } from '../../../projections/volunteer-purge.js';
import { defineHostOperation, type HostOpContext } from './operation.js';
import { withOpProgress } from './op-progress.js';

const Deployment = z
  .strictObject({
    brokers: z.array(z.string()).min(1).describe('Kafka brokers, host:port.'),
    topic_prefix: z.string().describe('The deployment’s topic prefix, e.g. "brainstream.".'),
    database: z.string().describe('The deployment’s PostgreSQL URL.'),
    schema: z.string().describe('The PostgreSQL schema of the deployment’s tables.'),
  })
  .describe('Purge this distributed deployment instead of the embedded brain.');

type Params = { ttl_days?: number | undefined; batch_size?: number | undefined; dry_run?: boolean | undefined; deployment?: z.output<typeof Deployment> | undefined };

/** The distributed purge: the decision goes to the deployment's volunteered topic, rows once it is applied. */
async function purgeDeployment(ctx: HostOpContext, deployment: z.output<typeof Deployment>, options: PurgeOptions): Promise<PurgeResult & { awaiting: number }> {
  // Kafka and PostgreSQL clients are loaded only here: the embedded purge never pays for them.
  const { purgeDeployment: run } = await import('../../distributed/purge-deployment.js');
  const settings = { brokers: deployment.brokers, topicPrefix: deployment.topic_prefix };
  return run(settings, { url: deployment.database, schema: deployment.schema }, ctx.home, options);
}

async function runPurge(ctx: HostOpContext, p: Params): Promise<Record<string, unknown>> {
  const ttlDays = p.ttl_days ?? retentionDays(ctx.home);
  const result = await withOpProgress(ctx.progress, 'purge', (onProgress) => {
    const options: PurgeOptions = { ttlDays, batchSize: p.batch_size, dryRun: p.dry_run === true, onProgress };
    return p.deployment ? purgeDeployment(ctx, p.deployment, options) : ctx.withBrain((brain) => purgeQuietly(brain, options));
  });
  return {
    purged: result.purged,
    ...(result.wouldPurge !== undefined ? { would_purge: result.wouldPurge } : {}),
    purged_before: result.purgedBefore,
    ttl_days: result.ttlDays,
    ...('awaiting' in result ? { awaiting_projections: result.awaiting } : {}),
  };
}

/** `purge`: the owner deletes volunteered events older than the retention (`brainstream purge`). */
export const purgeOp = defineHostOperation({
  name: 'purge',
  title: 'Delete stale volunteered events',
  description: 'Delete volunteered events older than the retention (memory.volunteer.retention_days), in the embedded brain or a distributed deployment (owner only).',
  params: z.strictObject({
    ttl_days: rangedNumber(RANGES.days).optional().describe('Retention in days for this run. Default: memory.volunteer.retention_days.'),
    batch_size: z.number().int().min(1).optional().describe('Rows per transaction. Default 1000.'),
    dry_run: z.boolean().optional().describe('Count what would be deleted; delete nothing.'),
    deployment: Deployment.optional(),
  }),
  result: z.looseObject({
    purged: z.number().int().describe('Stale volunteer events deleted (0 on a dry run).'),
    would_purge: z.number().int().optional().describe('On a dry run: how many would be deleted.'),
    purged_before: z.string().describe('Events volunteered before this instant are stale.'),
    ttl_days: z.number().int().describe('The retention the run used.'),
    awaiting_projections: z.number().int().optional().describe('A deployment’s stale events left until its projections apply the purge.'),
  }),
  effect: { readOnly: false, destructive: true, idempotent: true },
  access: 'owner',
  refusal: 'purge is an owner-only command',
  runsOn: 'host',
  run: runPurge,
});
