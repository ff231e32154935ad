// Where volunteered events went missing, if any did: the ids the reference decided, compared
// with each stage a distributed run passes them through — the outbox (the processor decided
// them), the volunteered topic (the relay's producer had them acknowledged) and
// context_volunteer_events (the projections applied them).
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { DEFAULT_PG_SCHEMA } from '../../../src/db/pg-schema.js';
import { partitionBounds } from '../../../src/event-log/kafka/end-offsets.js';
import { waitFor } from '../kafka/support/wait-for.js';

/** The events followed: the topic also carries the retention purge's decisions, which no table row stands for. */
const VOLUNTEERED = 'page.volunteered';

export interface VolunteeredTrail {
  /** Ids staged in the outbox, published or not (published rows are kept an hour). */
  outbox: string[];
  /** Ids staged and marked published. */
  published: string[];
  /** Ids of the page.volunteered messages on the volunteered topic, read from the beginning (repeats kept). */
  topic: string[];
  /** Ids in context_volunteer_events. */
  table: string[];
}

/** The ids of the `type` events of `topic`, read by a fresh consumer from the earliest offset to the end offsets of now. */
export async function topicEventIds(brokers: string[], topic: string, type: string): Promise<string[]> {
  const kafka = new Kafka({ clientId: 'test-trail', brokers, logLevel: logLevel.NOTHING, retry: { retries: 10 } });
  const admin = kafka.admin();
  await admin.connect();
  const groupId = `test-trail.${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 });
  try {
    const ends = new Map((await partitionBounds(admin, topic)).map((b) => [b.partition, b.high]));
    const next = new Map<number, number>();
    const ids: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset);
        if (offset < (next.get(partition) ?? 0)) return; // refetched after a rebalance
        next.set(partition, offset + 1);
        if (offset >= (ends.get(partition) ?? 0)) return;
        const event = JSON.parse(message.value!.toString('utf8')) as { id: string; type: string };
        if (event.type === type) ids.push(event.id);
      },
    });
    await waitFor(`every message of ${topic} up to its end offsets`, () =>
      [...ends].every(([partition, end]) => (next.get(partition) ?? 0) >= end),
    );
    return ids;
  } finally {
    await consumer.disconnect().catch(() => {});
    await admin.deleteGroups([groupId]).catch(() => {});
    await admin.disconnect().catch(() => {});
  }
}

export async function volunteeredTrail(database: string, brokers: string[], volunteeredTopic: string): Promise<VolunteeredTrail> {
  const db = openPostgresDb(database, { max: 1, schema: DEFAULT_PG_SCHEMA });
  try {
    const outbox = await db.query<{ id: string; published: boolean }>(
      "SELECT payload->>'id' AS id, published_at IS NOT NULL AS published FROM outbox WHERE payload->>'type' = $1 ORDER BY id",
      [VOLUNTEERED],
    );
    const table = await db.query<{ id: string }>('SELECT id FROM context_volunteer_events ORDER BY id');
    return {
      outbox: outbox.map((r) => r.id),
      published: outbox.filter((r) => r.published).map((r) => r.id),
      topic: await topicEventIds(brokers, volunteeredTopic, VOLUNTEERED),
      table: table.map((r) => r.id),
    };
  } finally {
    await db.close();
  }
}

/** Ids missing between consecutive stages, and ids a stage holds more than once. */
export interface TrailGaps {
  /** Decided by the reference, never staged: the processor did not decide them. */
  notDecided: string[];
  /** Staged more than once: the processor decided a turn twice. */
  decidedTwice: string[];
  /** Marked published, not on the topic: an acknowledged send was dropped. */
  notOnTopic: string[];
  /** On the topic, not in the table: the projections skipped messages. */
  notProjected: string[];
  /** In the table, not decided by the reference. */
  unexpected: string[];
}

export function trailGaps(referenceIds: readonly string[], trail: VolunteeredTrail): TrailGaps {
  const minus = (a: readonly string[], b: readonly string[]) => {
    const drop = new Set(b);
    return [...new Set(a)].filter((x) => !drop.has(x)).sort();
  };
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of trail.outbox) (seen.has(id) ? twice : seen).add(id);
  return {
    notDecided: minus(referenceIds, trail.outbox),
    decidedTwice: [...twice].sort(),
    notOnTopic: minus(trail.published, trail.topic),
    notProjected: minus(trail.topic, trail.table),
    unexpected: minus(trail.table, referenceIds),
  };
}
