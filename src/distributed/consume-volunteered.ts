import { randomUUID } from 'node:crypto';
import type { EachBatchPayload } from 'kafkajs';
import { roundConfidence } from '../context/confidence.js';
import type { WatchJsonLine } from '../context/render.js';
import { logger } from '../logger.js';
import { createKafkaClient, type KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { kafkaTopicName } from '../event-log/kafka/kafka-topics.js';
import { decodeMessage } from '../event-log/kafka/message-codec.js';
import type { LoggedEvent } from '../event-log/event-log.js';

export interface ConsumeOptions {
  fromBeginning: boolean;
  /** A durable group (positions committed to Kafka); without it, a private group that is deleted at the end. */
  group?: string;
  /** Stop after this many lines. */
  max?: number;
  /** Stop when nothing arrived for this long (counted from joining the group). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A volunteered event as a `watch --json` line (session id included); v1 events render the slug as display. */
function volunteeredLine(logged: LoggedEvent): WatchJsonLine | null {
  const e = logged.event;
  if (e.type !== 'page.volunteered') return null;
  const d = e.data;
  return {
    turn: d.turn as number,
    slug: d.slug,
    source_id: d.source_id,
    display: d.display ?? d.slug,
    confidence: roundConfidence(d.confidence),
    arm: d.match_arm,
    rationale: d.rationale,
    synopsis: d.synopsis ?? '',
    session_id: d.session_id as string,
  };
}

/**
 * `consume volunteered`: volunteered events of the deployment, in partition order, handed to
 * `onLine` until `max` lines, `timeoutMs` of silence or the signal. Returns the number of lines.
 */
export async function consumeVolunteered(settings: KafkaSettings, options: ConsumeOptions, onLine: (line: WatchJsonLine) => void): Promise<number> {
  const kafka = createKafkaClient(settings, { clientId: `brainstream-consume-${process.pid}` });
  const durable = options.group !== undefined;
  const groupId = options.group ?? `${settings.topicPrefix}consume.${randomUUID()}`;
  const topic = kafkaTopicName(settings.topicPrefix, 'volunteered');
  const log = logger.child({ component: 'consume', topic });
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 200 });
  let count = 0;
  let finish!: (err?: Error) => void;
  const finished = new Promise<void>((resolve, reject) => (finish = (err) => (err ? reject(err) : resolve())));
  let idle: NodeJS.Timeout | null = null;
  const touch = (): void => {
    if (options.timeoutMs === undefined) return;
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => finish(), options.timeoutMs);
  };
  const onAbort = (): void => finish();
  options.signal?.addEventListener('abort', onAbort);
  if (options.signal?.aborted) finish();
  consumer.on(consumer.events.GROUP_JOIN, touch);
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) finish(payload.error);
  });
  const done = (): boolean => options.max !== undefined && count >= options.max;
  const eachBatch = async ({ batch, resolveOffset }: EachBatchPayload): Promise<void> => {
    for (const message of batch.messages) {
      if (done()) break;
      const decoded = decodeMessage(batch.topic, 'volunteered', batch.partition, message);
      if (!decoded.ok) log.warn({ partition: batch.partition, offset: message.offset, reason: decoded.dead.reason }, 'skipping a bad message');
      const line = decoded.ok ? volunteeredLine(decoded.logged) : null;
      if (line) {
        onLine(line);
        count++;
      }
      resolveOffset(message.offset);
    }
    touch();
    if (done()) finish();
  };
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: options.fromBeginning });
    await consumer.run({ autoCommit: durable, eachBatchAutoResolve: false, eachBatch });
    if (options.max === 0) finish();
    await finished;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    if (idle) clearTimeout(idle);
    await consumer.disconnect();
    if (!durable) {
      const admin = kafka.admin();
      await admin.connect().then(() => admin.deleteGroups([groupId])).catch(() => {});
      await admin.disconnect().catch(() => {});
    }
  }
  return count;
}
