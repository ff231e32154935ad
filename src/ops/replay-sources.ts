import type { Brain } from '../brain/brain.js';
import type { KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { EmbeddedReplaySource } from '../replay/embedded-turn-source.js';
import type { ReplaySource } from '../replay/turn-source.js';

/**
 * `replay --kafka`: the distributed log as the replay's source (a snapshot at the end offsets of
 * the moment it opens; each read is a consumer group of its own). Kafka clients load only here.
 */
export async function withKafkaReplaySource<T>(settings: KafkaSettings, fn: (source: ReplaySource) => Promise<T>): Promise<T> {
  const { KafkaReplaySource } = await import('../replay/kafka-turn-source.js');
  const source = await KafkaReplaySource.open(settings);
  try {
    return await fn(source);
  } finally {
    await source.close();
  }
}

/** The embedded brain's log as the replay's source. */
export const embeddedReplaySource = (brain: Brain): Promise<ReplaySource> => EmbeddedReplaySource.open(brain.db);
