import type { Command } from 'commander';
import { cliIo } from '../../command-io.js';
import { kafkaSettings, positiveFlag, withKafkaOptions, type KafkaFlags } from '../kafka-flags.js';
import { outJson } from '../output.js';

interface Flags extends KafkaFlags {
  fromBeginning?: boolean;
  max?: string;
  timeoutMs?: string;
}

/** `brainstream consume volunteered`: the volunteered stream as `watch --json` lines. */
export function registerConsume(program: Command): void {
  const consume = program.command('consume').description('read a Kafka stream of a distributed deployment');
  withKafkaOptions(
    consume
      .command('volunteered')
      .description('volunteered pages as JSON lines {"turn","slug","source_id","display","confidence","arm","rationale","synopsis","session_id"}')
      .option('--from-beginning', 'start at the oldest event kept (default: only new ones)')
      .option('--group <id>', 'a consumer group whose position is kept between runs (default: a private one)')
      .option('--max <n>', 'stop after N lines')
      .option('--timeout-ms <t>', 'stop when nothing arrived for T ms'),
  ).action(async (flags: Flags) => {
    const settings = kafkaSettings(flags);
    const max = positiveFlag('--max', flags.max);
    const timeoutMs = positiveFlag('--timeout-ms', flags.timeoutMs);
    const stop = new AbortController();
    const onSignal = (): void => stop.abort();
    const direct = !cliIo().forwarded;
    if (direct) {
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }
    try {
      const { consumeVolunteered } = await import('../../distributed/consume-volunteered.js');
      await consumeVolunteered(
        settings,
        { fromBeginning: flags.fromBeginning === true, group: flags.group, max, timeoutMs, signal: stop.signal },
        (line) => outJson(line),
      );
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  });
}
