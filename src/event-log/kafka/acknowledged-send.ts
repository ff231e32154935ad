import { Partitioners, type ICustomPartitioner, type Message, type Producer, type RecordMetadata, type TopicMessages } from 'kafkajs';
import { logger } from '../../logger.js';

/**
 * The partition the producer's partitioner chose for each message, at the latest attempt to
 * send it (keyed messages always land on the same one while the partition count holds).
 */
const placed = new WeakMap<Message, number>();

/** kafkajs' default partitioner (murmur2 of the key), remembering where it put each message. */
export const recordingPartitioner: ICustomPartitioner = () => {
  const partition = Partitioners.DefaultPartitioner();
  return (args) => {
    const chosen = partition(args);
    placed.set(args.message, chosen);
    return chosen;
  };
};

/** Rounds of re-sending before a send that keeps coming back short is an error. */
const MAX_ROUNDS = 10;

/** The messages of `sent` whose partition has no acknowledgement in `acked`, per topic, in order. */
export function unacknowledged(sent: readonly TopicMessages[], acked: readonly RecordMetadata[]): TopicMessages[] {
  const ok = new Set(acked.map((r) => `${r.topicName}\u0000${r.partition}`));
  return sent
    .map(({ topic, messages }) => ({
      topic,
      messages: messages.filter((m) => {
        const partition = placed.get(m);
        return partition === undefined || !ok.has(`${topic}\u0000${partition}`);
      }),
    }))
    .filter((t) => t.messages.length > 0);
}

/**
 * `sendBatch` until every partition of the request is acknowledged. kafkajs (2.2.4) can resolve a
 * send without writing some of it: a request to one leader fails (NOT_LEADER, a broker killed),
 * the retry finds those partitions led by another broker whose part of the request had already
 * succeeded, and skips that broker, so the moved partitions' messages are never sent and the send
 * reports success. Its result lists the partitions that were written; a partition the
 * partitioner chose and the result lacks is sent again, its messages still in order (a
 * partition's messages travel in one request to one leader: all of them were written or none).
 */
export async function sendAcknowledged(producer: Producer, topicMessages: TopicMessages[]): Promise<void> {
  let pending = topicMessages;
  for (let round = 1; ; round++) {
    const acked = await producer.sendBatch({ topicMessages: pending, acks: -1 });
    pending = unacknowledged(pending, acked);
    if (pending.length === 0) return;
    const missing = pending.reduce((n, t) => n + t.messages.length, 0);
    if (round >= MAX_ROUNDS) throw new Error(`kafka send: ${missing} messages still unacknowledged after ${round} rounds`);
    logger.warn({ component: 'kafka-producer', missing, round, topics: pending.map((t) => t.topic) }, 'send acknowledged only part of the request; sending the rest again');
  }
}
