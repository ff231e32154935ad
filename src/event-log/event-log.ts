import type { AnyEvent, Envelope, Topic } from '../domain/events.js';

/** An event as read back from a log, with its position there. */
export interface LoggedEvent {
  /** Embedded: the global sequence number. Kafka: the offset within its partition. */
  position: number;
  topic: Topic;
  event: AnyEvent;
}

/** A stored entry that could not be decoded: it goes to the dead letters, the stream goes on. */
export interface UndecodableEntry {
  position: number;
  topic: string;
  raw: string;
  reason: string;
}

export interface ReadBatch {
  events: LoggedEvent[];
  rejected: UndecodableEntry[];
  /** The position to read from next (one past the last entry seen). */
  next: number;
}

/**
 * The log port. The embedded implementation is a PGlite table with a global sequence;
 * the distributed one is a set of Kafka topics. Appends are batched and idempotent on
 * the event id.
 */
export interface EventLog {
  append(events: readonly Envelope[]): Promise<void>;
  /** Reads entries with position ≥ `from` on the given topics (all when omitted), oldest first. */
  read(from: number, options?: { topics?: readonly Topic[]; limit?: number }): Promise<ReadBatch>;
  /** The position one past the newest entry (what a consumer must reach to be caught up). */
  end(): Promise<number>;
}
