import type { Command } from 'commander';
import { databaseUrl, groupOf, kafkaSettings, positiveFlag, type KafkaFlags } from '../kafka-flags.js';
import { errLine } from '../output.js';

interface Flags extends KafkaFlags {
  concurrency?: string;
  sessionTimeoutMs?: string;
}

/** The distributed mode's options of `serve` (the embedded serve ignores them). */
export function withKafkaServeOptions(cmd: Command): Command {
  return cmd
    .option('--kafka [brokers]', 'distributed mode: a member of the processors’ consumer group on these brokers (default: KAFKA_BROKERS)')
    .option('--database <url>', 'distributed mode: PostgreSQL of the projections and offsets (default: DATABASE_URL)')
    .option('--group <id>', 'distributed mode: consumer group (default: <topic-prefix>serve)')
    .option('--topic-prefix <prefix>', 'distributed mode: prefix of every topic name (default: brainstream.)')
    .option('--concurrency <n>', 'distributed mode: partitions processed at once (default 4)')
    .option('--session-timeout-ms <t>', 'distributed mode: group session timeout (default 30000; ≥ 6000)');
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
 * `brainstream serve --kafka`: runs until SIGINT/SIGTERM (or a Kafka client dies for good, exit 1),
 * then shuts down in the documented order (DistributedServe.stop).
 */
export async function runKafkaServe(flags: Flags, home: string): Promise<void> {
  const settings = kafkaSettings(flags);
  const url = databaseUrl(flags);
  const group = groupOf(flags, settings.topicPrefix);
  const concurrency = Math.max(1, positiveFlag('--concurrency', flags.concurrency, 4)!);
  const sessionTimeoutMs = positiveFlag('--session-timeout-ms', flags.sessionTimeoutMs, 30_000)!;
  const signalled = untilSignalled();
  // Kafka and PostgreSQL clients are loaded only here: no other command pays for them.
  const { DistributedServe } = await import('../../distributed/distributed-serve.js');
  const serve = await DistributedServe.start({ ...settings, databaseUrl: url, group, home, concurrency, sessionTimeoutMs });
  errLine(`[serve] kafka ${settings.brokers.join(',')} group ${group} topics ${settings.topicPrefix}*: ready (pid ${process.pid})`);
  // What ends the serve: a signal, or a Kafka client that died for good (exit 1). Clients that
  // report a failure once the shutdown has begun are being closed anyway.
  const reason = await Promise.race([signalled.then(() => null), serve.failed.catch((err: unknown) => ({ err }))]);
  errLine('[serve] stopping: finishing batches in flight, flushing the outbox');
  await serve.stop();
  errLine('[serve] stopped');
  if (reason) throw reason.err;
}
