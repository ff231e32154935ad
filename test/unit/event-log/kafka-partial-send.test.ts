// kafkajs 2.2.4 can resolve a send having written only part of it: after a leader change its
// retry skips the partitions that moved to a broker whose share of the request had already
// succeeded, and the result simply lacks them. The producer here behaves that way on its first
// send (kafkajs' request grouping in miniature: the configured partitioner places every message,
// the moved partitions are left out of the write and of the result); every message must still
// be written once, in order per partition.
import type { Kafka, Message, PartitionMetadata, Producer, ProducerBatch, ProducerConfig, RecordMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createIdempotentProducer, KafkaEventLog } from '../../../src/event-log/kafka/kafka-event-log.js';

const PARTITIONS = 4;

/** A broker log per topic-partition, written by a producer whose first send drops `moved` partitions. */
function shortFirstSend(moved: readonly number[]) {
  const written = new Map<string, string[]>();
  let sends = 0;
  const kafka = {
    producer(config: ProducerConfig) {
      const partitioner = config.createPartitioner!();
      const partitionMetadata: PartitionMetadata[] = Array.from({ length: PARTITIONS }, (_, i) => ({ partitionErrorCode: 0, partitionId: i, leader: 1 + (i % 2), replicas: [], isr: [] }));
      return {
        async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
          sends++;
          const acked = new Set<string>();
          const result: RecordMetadata[] = [];
          for (const { topic, messages } of batch.topicMessages!) {
            for (const message of messages as Message[]) {
              const partition = partitioner({ topic, partitionMetadata, message });
              if (sends === 1 && moved.includes(partition)) continue;
              const id = `${topic}/${partition}`;
              written.set(id, [...(written.get(id) ?? []), String(message.value)]);
              if (!acked.has(id)) result.push({ topicName: topic, partition, errorCode: 0 });
              acked.add(id);
            }
          }
          return result;
        },
      } as unknown as Producer;
    },
  } as unknown as Kafka;
  return { kafka, written, sends: () => sends };
}

describe('KafkaEventLog.sendKeyed', () => {
  it('sends again what a send reported as done without acknowledging its partition', async () => {
    const broker = shortFirstSend([1, 3]);
    const log = new KafkaEventLog(createIdempotentProducer(broker.kafka), 'p.');
    const messages = Array.from({ length: 40 }, (_, i) => ({ topic: 'p.volunteered', message: { key: `conv-${i % 9}`, value: `v${i}` } }));
    await log.sendKeyed(messages);
    const all = [...broker.written.values()].flat();
    expect(all.sort()).toEqual(messages.map((m) => m.message.value).sort());
    expect(broker.written.size).toBe(PARTITIONS);
    for (const values of broker.written.values()) {
      const order = values.map((v) => Number(v.slice(1)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    expect(broker.sends()).toBe(2);
  });

  it('a send that is acknowledged whole is sent once', async () => {
    const broker = shortFirstSend([]);
    const log = new KafkaEventLog(createIdempotentProducer(broker.kafka), 'p.');
    await log.sendKeyed([{ topic: 'p.turns', message: { key: 'conv-1', value: 'a' } }, { topic: 'p.turns', message: { key: 'conv-2', value: 'b' } }]);
    expect([...broker.written.values()].flat().sort()).toEqual(['a', 'b']);
    expect(broker.sends()).toBe(1);
  });
});
