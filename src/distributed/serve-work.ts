import type { Channel } from '../domain/event-schemas.js';
import type { Topic } from '../domain/events.js';
import type { Consumer } from '../event-log/consumer.js';
import type { BatchWork } from '../event-log/kafka/partition-batch.js';
import type { OutboxAppender } from '../event-log/kafka/outbox-appender.js';
import { PROJECTION_CONSUMERS } from '../../projections/registry.js';
import { createVolunteerProcessor, VOLUNTEER_PROCESSOR, type PageTable } from '../../streams/volunteer-processor.js';
import type { TopologySettings, TurnDecision } from '../../streams/decide-turns.js';

/** The streams of the processors' member: turns. */
export const PROCESSOR_TOPICS: readonly Topic[] = ['turns'];
/** The streams of the projections' member: whatever the projections read. */
export const PROJECTION_TOPICS: readonly Topic[] = [...new Set(PROJECTION_CONSUMERS.flatMap((p) => p.topics))];

/**
 * A serve group `G` is two consumer groups, so that decisions never wait behind projection
 * batches (kafkajs fetches again only when every batch of a fetch is done): `G` runs the volunteer
 * processors over turns, `G.projections` runs the projections over the other streams.
 */
export const projectionsGroup = (group: string): string => `${group}.projections`;

/** The session-state owner of a group's processors: groups sharing a database keep their sessions apart. */
export const processorName = (group: string): string => `${VOLUNTEER_PROCESSOR}@${group}`;

export interface ProcessorWorkOptions {
  group: string;
  pages: PageTable;
  outbox: OutboxAppender;
  settings: () => TopologySettings;
  channel?: Channel;
  /** Told of each batch's decisions once they are committed. */
  onDecided?: (decisions: readonly TurnDecision[]) => void;
}

/**
 * Turns go to a volunteer processor per partition — the same processor as the embedded mode,
 * its volunteered events staged in the outbox. Its session cache lives as long as this process
 * keeps committing that partition; when another member moved it meanwhile (`stale`), a fresh
 * processor reloads the sessions from `session_state`.
 */
export function processorWork(options: ProcessorWorkOptions): (topic: Topic, partition: number) => BatchWork {
  const processors = new Map<number, Consumer>();
  const processorFor = (partition: number, stale: boolean): Consumer => {
    let consumer = processors.get(partition);
    if (!consumer || stale) {
      const processor = createVolunteerProcessor({
        log: options.outbox,
        pages: options.pages,
        settings: options.settings,
        channel: options.channel ?? 'watch',
        name: processorName(options.group),
      });
      // The batch's decisions are handed on (applied, inside the batch's transaction).
      consumer = {
        name: processor.name,
        topics: processor.topics,
        async apply(tx, events) {
          const decisions = await processor.apply(tx, events);
          options.onDecided?.(decisions);
          return decisions;
        },
      };
      processors.set(partition, consumer);
    }
    return consumer;
  };
  return (_topic, partition) => ({ consumers: (stale) => [processorFor(partition, stale)], serialize: false, outbox: options.outbox });
}

/**
 * The projections of a batch's stream, one batch at a time across partitions and members (the
 * projection lock). They read rows other streams write — usage stats joins volunteered facts
 * with the retrieval and page marks, pages and retrievals share `last_retrieved_at` — which two
 * concurrent transactions would each miss.
 *
 * Batches of `page.volunteered` events only hold the lock shared, side by side: they read no row
 * another such batch writes (the marks are written by page and retrieval batches, which still
 * hold the lock alone), their rows are keyed by event id or by (page, session) — a session's
 * events are all on one partition, whose offset row serialises its batches — and the counters
 * they share are increments written in key order, so concurrent batches never deadlock on them.
 * A purge event moves watermarks (read, then written): its batch holds the lock alone.
 */
export function projectionWork(outbox: OutboxAppender): (topic: Topic) => BatchWork {
  return (topic) => {
    const consumers = PROJECTION_CONSUMERS.filter((p) => p.topics.includes(topic));
    return { consumers: () => consumers, serialize: true, commutes: (e) => e.event.type === 'page.volunteered', outbox };
  };
}
