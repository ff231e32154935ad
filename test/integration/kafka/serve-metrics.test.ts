// The opt-in /metrics endpoint of a distributed serve member, scraped after a real stream: what
// came in, was decided and volunteered, how late the projections were, the lag, the dead letters.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEvent, pageKey } from '../../../src/domain/events.js';
import { DistributedServe } from '../../../src/distributed/distributed-serve.js';
import { withKafkaPublisher } from '../../../src/distributed/kafka-publisher.js';
import { kafkaTopicName } from '../../../src/event-log/kafka/kafka-topics.js';
import { servicesOrSkip } from '../../support/services.js';
import { waitForZeroLag } from './support/group-lag.js';

const svc = await servicesOrSkip({ postgres: true, kafka: true });

const page = (slug: string, title: string) =>
  makeEvent('page.upserted', { source_id: 'default', slug, title, type: 'person', frontmatter: {}, compiled_truth: `${title} works here.`, timeline: '', content_hash: slug, file_path: null, origin: 'import' }, { key: pageKey('default', slug) });
const turn = (session: string, n: number, text: string) =>
  makeEvent('turn.appended', { session_id: session, turn: n, role: 'user', text, source_id: 'default' }, { key: session });

/** `name{labels} value` samples of a Prometheus text exposition. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe.skipIf(svc.skip)('serve --kafka metrics', () => {
  let dir: string;
  let serve: DistributedServe;
  const group = () => `${svc.kafka.topicPrefix}serve`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bs-metrics-'));
    const settings = { brokers: svc.kafka.brokers, topicPrefix: svc.kafka.topicPrefix };
    await withKafkaPublisher(settings, (log) => log.append([page('people/alice-example', 'Alice Example'), page('people/bob-sample', 'Bob Sample')]));
    serve = await DistributedServe.start({ ...settings, databaseUrl: svc.pg.url, group: group(), home: join(dir, 'home'), sessionTimeoutMs: 6000, metricsPort: 0 });
    await withKafkaPublisher(settings, (log) =>
      log.append([turn('s1', 1, 'can you pull up Alice Example'), turn('s1', 2, 'and Bob Sample too'), turn('s2', 1, 'nothing to see here')]),
    );
    // One message that is not an event: a dead letter.
    const producer = new Kafka({ clientId: 'metrics-test', brokers: svc.kafka.brokers, logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({ topic: kafkaTopicName(svc.kafka.topicPrefix, 'turns'), messages: [{ key: 's3', value: 'not json' }] });
    await producer.disconnect();
    await waitForZeroLag({ brokers: svc.kafka.brokers, database: svc.pg.url, topicPrefix: svc.kafka.topicPrefix, group: group() });
  });

  afterAll(async () => {
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts turns, decisions, volunteered pages and dead letters; reports the projection delay and the lag', async () => {
    const res = await fetch(`http://127.0.0.1:${serve.metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const m = samples(text);
    expect(m.get('brainstream_turns_total')).toBe(3);
    expect(m.get('brainstream_decisions_total')).toBe(3);
    expect(m.get('brainstream_volunteered_total')).toBe(2);
    expect(m.get(`brainstream_dead_letters_total{topic="${kafkaTopicName(svc.kafka.topicPrefix, 'turns')}"}`)).toBe(1);
    expect(m.get('brainstream_projection_delay_seconds_count')).toBe(2);
    expect(m.get('brainstream_projection_delay_seconds_sum')).toBeGreaterThan(0);
    expect(m.get(`brainstream_consumer_lag{group="${group()}",topic="${kafkaTopicName(svc.kafka.topicPrefix, 'turns')}"}`)).toBe(0);
    expect(m.get(`brainstream_consumer_lag{group="${group()}",topic="outbox"}`)).toBe(0);
    // Every metric is documented in the exposition itself.
    for (const name of ['turns_total', 'decisions_total', 'volunteered_total', 'dead_letters_total', 'projection_delay_seconds', 'consumer_lag']) {
      expect(text).toContain(`# HELP brainstream_${name} `);
    }
  });

  it('answers only GET /metrics, on loopback', async () => {
    expect((await fetch(`http://127.0.0.1:${serve.metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${serve.metricsPort}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
