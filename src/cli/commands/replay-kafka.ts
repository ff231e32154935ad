import type { ReplaySource } from '../../replay/turn-source.js';
import { kafkaSettings, type KafkaFlags } from '../kafka-flags.js';

/**
 * `replay --kafka`: the distributed log as the replay's source (a snapshot at the end offsets of
 * the moment it opens; each read is a consumer group of its own). Kafka clients load only here.
 */
export async function withKafkaReplaySource<T>(flags: KafkaFlags, fn: (source: ReplaySource) => Promise<T>): Promise<T> {
  const settings = kafkaSettings(flags);
  const { KafkaReplaySource } = await import('../../replay/kafka-turn-source.js');
  const source = await KafkaReplaySource.open(settings);
  try {
    return await fn(source);
  } finally {
    await source.close();
  }
}
