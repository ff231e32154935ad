import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Topic } from '../domain/events.js';
import type { PartitionBatch } from '../event-log/kafka/partition-batch.js';
import type { GroupLag } from './group-lag.js';

/** What a committed batch reports to the metrics. */
export interface CommittedBatch {
  group: 'processors' | 'projections';
  topic: Topic;
  batch: PartitionBatch;
  /** Events applied (those already applied before were skipped). */
  events: number;
  dead: number;
}

/**
 * The metrics of one `serve --kafka` member, in Prometheus text format: what came in, what was
 * decided and volunteered, how late the projections are, how far behind the groups are, and the
 * dead letters. Counters are this process's own since it started (Prometheus sums members);
 * the lag is the whole group's, measured when scraped.
 */
export class ServeMetrics {
  readonly registry = new Registry();
  private readonly turns = new Counter({ name: 'brainstream_turns_total', help: 'Turns applied by this member’s processors', registers: [this.registry] });
  private readonly decisions = new Counter({ name: 'brainstream_decisions_total', help: 'Volunteer decisions made, one per turn decided (a batch whose transaction failed after deciding is decided and counted again)', registers: [this.registry] });
  private readonly volunteered = new Counter({ name: 'brainstream_volunteered_total', help: 'Pages volunteered by this member’s decisions', registers: [this.registry] });
  private readonly deadLetters = new Counter({ name: 'brainstream_dead_letters_total', help: 'Messages dead-lettered by this member', labelNames: ['topic'], registers: [this.registry] });
  private readonly delay = new Histogram({
    name: 'brainstream_projection_delay_seconds',
    help: 'From a volunteered page’s event time (its turn) to the commit of its row by the projections',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });

  constructor(lag: () => Promise<GroupLag>) {
    new Gauge({
      name: 'brainstream_consumer_lag',
      help: 'Messages published and not yet committed, per consumer group and topic (outbox: staged, not yet published)',
      labelNames: ['group', 'topic'],
      registers: [this.registry],
      async collect() {
        this.reset();
        const l = await lag();
        const sums = new Map<string, { group: string; topic: string; lag: number }>();
        for (const p of l.partitions) {
          const key = `${p.group}\u0000${p.topic}`;
          const s = sums.get(key) ?? { group: p.group, topic: p.topic, lag: 0 };
          s.lag += p.lag;
          sums.set(key, s);
        }
        for (const s of sums.values()) this.set({ group: s.group, topic: s.topic }, s.lag);
        this.set({ group: l.group, topic: 'outbox' }, l.outbox_pending);
      },
    });
  }

  /** Decisions of a processors' batch (after its commit). */
  decided(decisions: readonly { volunteered: readonly unknown[] }[]): void {
    this.decisions.inc(decisions.length);
    this.volunteered.inc(decisions.reduce((n, d) => n + d.volunteered.length, 0));
  }

  committed(c: CommittedBatch): void {
    if (c.dead > 0) this.deadLetters.inc({ topic: c.batch.key.topic }, c.dead);
    if (c.group === 'processors' && c.topic === 'turns') this.turns.inc(c.events);
    if (c.group === 'projections' && c.topic === 'volunteered' && c.events > 0) {
      const now = Date.now();
      for (const m of c.batch.messages) {
        if (m.ok && m.logged.event.type === 'page.volunteered') this.delay.observe(Math.max(0, now - Date.parse(m.logged.event.at)) / 1000);
      }
    }
  }

  /** Serves GET /metrics on 127.0.0.1:`port` (0: any free port); resolves with the port. */
  async listen(port: number): Promise<{ port: number; close(): Promise<void> }> {
    const server: Server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${err instanceof Error ? err.message : String(err)}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return {
      port: (server.address() as AddressInfo).port,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
}
