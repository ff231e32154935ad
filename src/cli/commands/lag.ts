import type { Command } from 'commander';
import type { GroupLag } from '../../distributed/group-lag.js';
import { databaseUrl, groupOf, pgSchema, kafkaSettings, withKafkaOptions, type KafkaFlags } from '../kafka-flags.js';
import { outJson, outLine } from '../output.js';

function render(lag: GroupLag): string[] {
  const gw = Math.max(5, ...lag.partitions.map((p) => p.group.length));
  const tw = Math.max(5, ...lag.partitions.map((p) => p.topic.length));
  const lines = [`${'group'.padEnd(gw)}  ${'topic'.padEnd(tw)}  partition  committed        end        lag`];
  for (const p of lag.partitions) {
    const cells = [p.partition, p.committed ?? '-', p.end, p.lag].map((c) => String(c).padStart(9));
    lines.push(`${p.group.padEnd(gw)}  ${p.topic.padEnd(tw)}  ${cells.join('  ')}`);
  }
  lines.push(`outbox: ${lag.outbox_pending} staged, not yet published`, `total lag: ${lag.total}`);
  return lines;
}

/** `brainstream lag`: how far the processors' group is behind, per topic-partition (0 everywhere = done). */
export function registerLag(program: Command): void {
  withKafkaOptions(
    program
      .command('lag')
      .description('committed position (kafka_offsets) vs end offset per topic-partition of a serve group (processors and projections)')
      .option('--group <id>', 'consumer group (default: <topic-prefix>serve)')
      .option('--json', 'one JSON object: {group, partitions:[{group,topic,partition,committed,end,lag}], outbox_pending, total}'),
    { database: true },
  ).action(async (flags: KafkaFlags & { json?: boolean }) => {
    const settings = kafkaSettings(flags);
    const url = databaseUrl(flags);
    const schema = pgSchema(flags);
    const group = groupOf(flags, settings.topicPrefix);
    const [{ openDistributedDb }, { measureGroupLag }, { createKafkaClient }] = await Promise.all([
      import('../../distributed/distributed-db.js'),
      import('../../distributed/group-lag.js'),
      import('../../event-log/kafka/kafka-client.js'),
    ]);
    const db = await openDistributedDb(url, { pool: 1, applicationName: 'brainstream-lag', schema });
    const admin = createKafkaClient(settings, { clientId: `brainstream-lag-${process.pid}` }).admin();
    try {
      await admin.connect();
      const lag = await measureGroupLag(db, admin, settings.topicPrefix, group);
      if (flags.json) outJson(lag);
      else for (const line of render(lag)) outLine(line);
    } finally {
      await admin.disconnect().catch(() => {});
      await db.close();
    }
  });
}
