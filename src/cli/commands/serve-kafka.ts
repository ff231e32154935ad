import type { Command } from 'commander';
import { databaseUrl, groupOf, kafkaSettings, pgSchema, positiveFlag, SCHEMA_OPTION_HELP, type KafkaFlags } from '../kafka-flags.js';
import { UsageError } from '../../errors.js';
import { logger, readableLogsOnTty } from '../../logger.js';
import { errLine } from '../output.js';

interface Flags extends KafkaFlags {
  concurrency?: string;
  sessionTimeoutMs?: string;
  metricsPort?: string;
}

/** The distributed mode's options of `serve` (the embedded serve ignores them). */
export function withKafkaServeOptions(cmd: Command): Command {
  return cmd
    .option('--kafka [brokers]', 'distributed mode: a member of the processors’ consumer group on these brokers (default: KAFKA_BROKERS)')
    .option('--database <url>', 'distributed mode: PostgreSQL of the projections and offsets (default: DATABASE_URL)')
    .option('--schema <name>', `distributed mode: ${SCHEMA_OPTION_HELP}`)
    .option('--group <id>', 'distributed mode: consumer group (default: <topic-prefix>serve)')
    .option('--topic-prefix <prefix>', 'distributed mode: prefix of every topic name (default: brainstream.)')
    .option('--concurrency <n>', 'distributed mode: partitions processed at once (default 4)')
    .option('--session-timeout-ms <t>', 'distributed mode: group session timeout (default 30000; ≥ 6000)')
    .option('--metrics-port <port>', 'distributed mode: serve Prometheus metrics at http://127.0.0.1:<port>/metrics (0: any free port; default: off)');
}

/** Resolves at the first SIGINT/SIGTERM; a second one while stopping exits at once. */
function untilSignalled(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const force = (): never => process.exit(130);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/**
 * `brainstream serve --kafka`: runs until SIGINT/SIGTERM, then shuts down in the documented order
 * (DistributedServe.stop).
 */
export async function runKafkaServe(flags: Flags, home: string): Promise<void> {
  const settings = kafkaSettings(flags);
  const url = databaseUrl(flags);
  const schema = pgSchema(flags);
  const group = groupOf(flags, settings.topicPrefix);
  const concurrency = Math.max(1, positiveFlag('--concurrency', flags.concurrency, 4)!);
  const sessionTimeoutMs = positiveFlag('--session-timeout-ms', flags.sessionTimeoutMs, 30_000)!;
  const metricsPort = positiveFlag('--metrics-port', flags.metricsPort);
  if (metricsPort !== undefined && metricsPort > 65535) throw new UsageError(`--metrics-port expects a port number (0-65535), got ${JSON.stringify(flags.metricsPort)}`);
  await readableLogsOnTty();
  const signalled = untilSignalled();
  // Kafka and PostgreSQL clients are loaded only here: no other command pays for them.
  const { DistributedServe } = await import('../../distributed/distributed-serve.js');
  const serve = await DistributedServe.start({ ...settings, databaseUrl: url, schema, group, home, concurrency, sessionTimeoutMs, metricsPort });
  const metrics = serve.metricsPort === null ? '' : ` metrics http://127.0.0.1:${serve.metricsPort}/metrics`;
  errLine(`[serve] kafka ${settings.brokers.join(',')} group ${group} topics ${settings.topicPrefix}* schema ${schema}${metrics}: ready (pid ${process.pid})`);
  // Only a signal ends it: Kafka clients ride out broker outages (kafkajs consumers that give up are replaced).
  await signalled;
  errLine('[serve] stopping: finishing batches in flight, flushing the outbox');
  await serve.stop();
  errLine('[serve] stopped');
  exitAfterGrace();
}

/**
 * Everything is committed and every client disconnected; the process ends when its event loop
 * is empty. After a broker outage kafkajs can leave a request queue's timer or a half-restarted
 * consumer behind (it does not stop a consumer that is still joining), which would keep the
 * process alive for ever: past a short grace, it exits anyway, saying what was left.
 */
function exitAfterGrace(graceMs = 3000): void {
  setTimeout(() => {
    logger.warn({ resources: process.getActiveResourcesInfo() }, 'Kafka clients left work running after disconnecting; exiting');
    process.exit(process.exitCode ?? 0);
  }, graceMs).unref();
}
