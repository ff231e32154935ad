import { createKafkaClient, type KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { createIdempotentProducer, KafkaEventLog } from '../event-log/kafka/kafka-event-log.js';
import { ensureTopics } from '../event-log/kafka/kafka-topics.js';

/**
 * Runs `fn` with an idempotent producer on the deployment's topics (created first when missing,
 * so nothing waits on a topic that does not exist), then disconnects whatever happens.
 */
export async function withKafkaPublisher<T>(settings: KafkaSettings, fn: (log: KafkaEventLog) => Promise<T>): Promise<T> {
  const kafka = createKafkaClient(settings, { clientId: `brainstream-publish-${process.pid}` });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await ensureTopics(admin, settings.topicPrefix);
    const producer = createIdempotentProducer(kafka);
    await producer.connect();
    try {
      return await fn(new KafkaEventLog(producer, settings.topicPrefix));
    } finally {
      await producer.disconnect();
    }
  } finally {
    await admin.disconnect();
  }
}
