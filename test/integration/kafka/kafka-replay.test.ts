// `replay --kafka`'s source: the distributed log read as a snapshot (end offsets taken at open),
// scored exactly as the same events in the embedded log.
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrainOn } from '../../../src/brain/brain.js';
import { openMemoryDb } from '../../support/databases.js';
import { makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import { createIdempotentProducer, KafkaEventLog } from '../../../src/event-log/kafka/kafka-event-log.js';
import { KafkaReplaySource } from '../../../src/replay/kafka-turn-source.js';
import { ensureTopics } from '../../../src/event-log/kafka/kafka-topics.js';
import { EmbeddedReplaySource } from '../../../src/replay/embedded-turn-source.js';
import { runReplay, type ReplayOptions } from '../../../src/replay/replay.js';
import { kafkaOrSkip } from '../../support/services.js';
import { conversationStream, streamPages } from './support/conversation-stream.js';

const kafka = await kafkaOrSkip();

const pages = streamPages(90);
const pageEvents = pages.map((p) =>
  makeEvent('page.upserted', { source_id: 'default', slug: p.slug, title: p.title, type: 'person', frontmatter: { aliases: [p.alias] }, compiled_truth: `${p.title} works here.`, timeline: '', content_hash: p.slug, file_path: null, origin: 'import' }, { key: pageKey('default', p.slug) }),
);
const turns = conversationStream(pages, 8, 40).map((l) =>
  makeEvent('turn.appended', { session_id: l.session_id, turn: l.turn, role: l.role, text: l.text, source_id: 'default' }, { key: l.session_id, at: l.at }),
);
// Read three hours after the conversation, as a user looks pages up later that day.
const readAt = new Date(Date.parse(turns.at(-1)!.at) + 3 * 3_600_000).toISOString();
const retrievals = pages.slice(0, 30).map((p, i) =>
  makeEvent('page.retrieved', { source_id: 'default', slug: p.slug, session_id: `conv-${i % 8}` }, { key: pageKey('default', p.slug), at: readAt }),
);
const options: ReplayOptions = { gates: [0.6, 0.7, 0.8], collect: [1], arms: null, since: null, workers: 0, windowTurns: 4, lexicalArms: true, gazetteer: true, remote: true };

describe.skipIf(!kafka)('the Kafka replay source (real broker)', () => {
  let client: Kafka;
  let log: KafkaEventLog;
  let disconnect: () => Promise<void>;

  beforeAll(async () => {
    client = new Kafka({ clientId: 'kafka-replay-test', brokers: kafka!.brokers, logLevel: logLevel.NOTHING });
    const admin = client.admin();
    await admin.connect();
    await ensureTopics(admin, kafka!.topicPrefix);
    await admin.disconnect();
    const producer = createIdempotentProducer(client);
    await producer.connect();
    disconnect = () => producer.disconnect();
    log = new KafkaEventLog(producer, kafka!.topicPrefix);
    // Pages, then turns, then retrievals: the order both logs hold them in.
    for (const events of [pageEvents, turns, retrievals] as Envelope[][]) {
      await log.append(events);
      await new Promise((resolve) => setTimeout(resolve, 5)); // a later message time for the next stream
    }
  });

  afterAll(async () => {
    await disconnect?.();
    await kafka?.deleteTopics();
  });

  it('scores the same as the embedded log holding the same events, and reads only what was there at open', async () => {
    const brain = await openBrainOn(await openMemoryDb());
    await brain.log.append([...pageEvents, ...turns, ...retrievals]);
    const embedded = await runReplay(await EmbeddedReplaySource.open(brain.db), options);
    await brain.close();

    const source = await KafkaReplaySource.open({ brokers: kafka!.brokers, topicPrefix: kafka!.topicPrefix });
    try {
      // Published after the source opened: not part of this replay.
      await log.append([makeEvent('turn.appended', { session_id: 'late', turn: 1, role: 'user', text: `about ${pages[1]!.title}`, source_id: 'default' }, { key: 'late' })]);
      const distributed = await runReplay(source, options);
      expect(embedded.volunteered.length).toBeGreaterThan(20);
      expect(distributed.report).toEqual(embedded.report);
      // Sessions interleave differently (Kafka has no order across partitions); each session's is the same.
      const bySession = (v: typeof embedded.volunteered) => [...v].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      expect(bySession(distributed.volunteered)).toEqual(bySession(embedded.volunteered));
    } finally {
      await source.close();
    }
  });
});
