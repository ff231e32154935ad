import type { Topic } from '../domain/events.js';
import type { LoggedEvent, UndecodableEntry } from '../event-log/event-log.js';

/** One chunk of a replay read, in log order. */
export interface SourceBatch {
  events: LoggedEvent[];
  /** Entries that did not decode (unknown type or version, bad shape): skipped and counted. */
  rejected: UndecodableEntry[];
  /** How far the read has got, in the source's own measure (`0..total`). */
  done: number;
  total: number;
}

/**
 * Where a replay reads the logged turns, pages and retrievals. A read covers what the log held
 * when the source was opened and then stops, so a replay of a live brain is a snapshot.
 * Implementations: the embedded log (below); a Kafka reader (a fresh consumer group per read that
 * stops at the end offsets taken at open) plugs in here for the distributed mode.
 */
export interface ReplaySource {
  read(topics: readonly Topic[]): AsyncIterable<SourceBatch>;
}
