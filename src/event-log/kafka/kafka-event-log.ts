import type { Kafka, Message, Producer, TopicMessages } from 'kafkajs';
import { topicOf, type Envelope, type EventType } from '../../domain/events.js';
import type { EventLog } from '../event-log.js';
import { kafkaTopicName } from './kafka-topics.js';
import { encodeEvent } from './message-codec.js';
import { recordingPartitioner, sendAcknowledged } from './acknowledged-send.js';

/**
 * The idempotent producer every writer uses: acks from all in-sync replicas, one request in
 * flight, so retries never reorder or duplicate; its partitioner remembers where each message
 * went, so `KafkaEventLog` can tell a send kafkajs only partly made.
 */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: recordingPartitioner });
}

/** Keeps one request well below the broker's 1 MiB default message size per partition batch. */
const MAX_REQUEST_BYTES = 512 * 1024;

/** Splits keyed messages into requests of at most MAX_REQUEST_BYTES, keeping their order per topic. */
function chunkTopicMessages(messages: readonly { topic: string; message: Message }[]): TopicMessages[][] {
  const requests: TopicMessages[][] = [];
  let current = new Map<string, Message[]>();
  let bytes = 0;
  const flush = (): void => {
    if (current.size > 0) requests.push([...current].map(([topic, msgs]) => ({ topic, messages: msgs })));
    current = new Map();
    bytes = 0;
  };
  for (const { topic, message } of messages) {
    const size = String(message.value ?? '').length + String(message.key ?? '').length + 64;
    if (bytes + size > MAX_REQUEST_BYTES && bytes > 0) flush();
    const list = current.get(topic) ?? [];
    list.push(message);
    current.set(topic, list);
    bytes += size;
  }
  flush();
  return requests;
}

/**
 * The log port's append on Kafka: each event goes to `<prefix><topic>` keyed by its ordering key
 * (session id, source/slug), so per-key order is the partition's order. Reading is done by
 * consumer groups (`KafkaGroupRunner`) driving the same `Consumer`s as the embedded log.
 */
export class KafkaEventLog implements Pick<EventLog, 'append'> {
  constructor(
    private readonly producer: Producer,
    private readonly topicPrefix: string,
  ) {}

  async append(events: readonly Envelope[]): Promise<void> {
    const keyed = events.map((e) => ({ topic: kafkaTopicName(this.topicPrefix, topicOf(e.type as EventType)), message: encodeEvent(e) }));
    await this.sendKeyed(keyed);
  }

  /** Sends already encoded messages (the outbox relay's rows), in order, in bounded requests, each acknowledged whole. */
  async sendKeyed(messages: readonly { topic: string; message: Message }[]): Promise<void> {
    for (const topicMessages of chunkTopicMessages(messages)) await sendAcknowledged(this.producer, topicMessages);
  }
}
