import type { KafkaMessage, Message } from 'kafkajs';
import { decodeEvent, topicOf, type Envelope, type EventType, type Topic } from '../../domain/events.js';
import type { LoggedEvent } from '../event-log.js';

/** A message that could not be decoded: where it is and why (dead-letter table and topic). */
export interface KafkaDeadLetter {
  topic: string;
  partition: number;
  offset: number;
  reason: string;
  raw: string;
  /** The message's timestamp (ms since the epoch), the dead letter's event time. */
  timestamp: number;
}

export type DecodedMessage = { ok: true; logged: LoggedEvent } | { ok: false; dead: KafkaDeadLetter };

/** An event as a Kafka message: keyed by its ordering key, the envelope as JSON. */
export function encodeEvent(event: Envelope): Message {
  return { key: event.key, value: JSON.stringify(event) };
}

/** PostgreSQL text and JSON cannot hold NUL: it is spelled out instead. */
const storable = (text: string): string => text.replace(/\u0000/g, '\\u0000');

/**
 * A message of `kafkaTopic` (the stream `topic`) as an event, upcast to the newest version, or
 * a dead letter: empty, not JSON, an invalid envelope or data, an unknown type or version, or
 * an event of another stream. Never throws.
 */
export function decodeMessage(kafkaTopic: string, topic: Topic, partition: number, message: KafkaMessage): DecodedMessage {
  const offset = Number(message.offset);
  const text = message.value === null ? '' : message.value.toString('utf8');
  const dead = (reason: string): DecodedMessage => ({
    ok: false,
    // Reasons may quote the input (JSON.parse does), so both are made storable.
    dead: { topic: kafkaTopic, partition, offset, reason: storable(reason), raw: storable(text), timestamp: Number(message.timestamp) || 0 },
  });
  if (message.value === null) return dead('empty message (no value)');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return dead(`not JSON: ${(err as Error).message}`);
  }
  const decoded = decodeEvent(json);
  if (!decoded.ok) return dead(decoded.reason);
  const belongs = topicOf(decoded.event.type as EventType);
  if (belongs !== topic) return dead(`event type "${decoded.event.type}" belongs to topic "${belongs}", not "${topic}"`);
  return { ok: true, logged: { position: offset, topic, event: decoded.event } };
}
