import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/db.js';
import type { Topic } from '../../domain/events.js';
import { logger } from '../../logger.js';
import type { KafkaEventLog } from './kafka-event-log.js';
import { kafkaTopicName } from './kafka-topics.js';

export interface OutboxRelayOptions {
  /** Rows per publication (one transaction, one or a few produce requests). */
  batchSize?: number;
  /** Safety-net poll for rows staged by processes that died before publishing them. */
  pollMs?: number;
  /** Published rows are deleted once older than this. */
  keepPublishedMs?: number;
}

const CLEANUP_EVERY_MS = 60_000;
/** How long a claimed row is left to its relay before another one publishes it. */
const CLAIM_MS = 30_000;

/**
 * Publishes the outbox: rows staged by committed transactions are claimed for a while (one
 * statement, `FOR UPDATE SKIP LOCKED`, so the relays of several processes share the work), sent
 * to `<prefix><topic>` with their keys in id order, then marked published. No transaction stays
 * open across the send. A relay that dies between claiming and marking leaves the claim to
 * expire and the rows are sent again: their ids are deterministic, consumers keep one.
 *
 * Marking overlaps the next claim and send (the marked rows are claimed, so no claim picks them
 * again): rows committed meanwhile wait one claim and one send, not a mark as well. Sends stay
 * one at a time, in id order.
 */
export class OutboxRelay {
  private readonly log = logger.child({ component: 'outbox-relay' });
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly keepPublishedMs: number;
  private wake: (() => void) | null = null;
  private kicked = false;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private lastCleanup = Date.now();
  /** The mark of the rows last sent, still in flight (at most one). */
  private marking: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly events: KafkaEventLog,
    private readonly topicPrefix: string,
    options: OutboxRelayOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 5000;
    this.pollMs = options.pollMs ?? 250;
    this.keepPublishedMs = options.keepPublishedMs ?? 3_600_000;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** New rows were committed: publish them now rather than at the next poll. */
  kick(): void {
    this.kicked = true;
    this.wake?.();
  }

  /** Stops the loop, then publishes what is still pending (a few attempts if the broker is away). */
  async stop(): Promise<number> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
    return this.flush(3);
  }

  /** Publishes until nothing is pending; gives up after `attempts` consecutive failures. Returns rows published. */
  async flush(attempts = 1): Promise<number> {
    let total = 0;
    let failures = 0;
    for (;;) {
      try {
        const n = await this.publishBatch();
        total += n;
        failures = 0;
        if (n === 0) {
          await this.marking;
          return total;
        }
      } catch (err) {
        if (++failures >= attempts) {
          this.log.warn({ err }, 'outbox not fully published; another relay or the next start publishes the rest');
          await this.marking;
          return total;
        }
        await sleep(500 * failures);
      }
    }
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.kicked = false;
      let published = 0;
      try {
        published = await this.publishBatch();
        failures = 0;
        if (Date.now() - this.lastCleanup > CLEANUP_EVERY_MS) await this.cleanup();
      } catch (err) {
        failures++;
        this.log.warn({ err, failures }, 'outbox publication failed; retrying');
        await this.pause(Math.min(5000, 200 * 2 ** Math.min(failures, 5)));
        continue;
      }
      if (published < this.batchSize && !this.kicked) await this.pause(this.pollMs);
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private async publishBatch(): Promise<number> {
    const rows = await this.db.query<{ id: number; topic: Topic; key: string; payload: string }>(
      `UPDATE outbox SET claimed_until = now() + ($2::bigint * interval '1 millisecond')
        WHERE id IN (SELECT id FROM outbox
                      WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
                      ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING id, topic, key, payload::text AS payload`,
      [this.batchSize, CLAIM_MS],
    );
    if (rows.length === 0) return 0;
    rows.sort((a, b) => a.id - b.id);
    await this.events.sendKeyed(rows.map((r) => ({ topic: kafkaTopicName(this.topicPrefix, r.topic), message: { key: r.key, value: r.payload } })));
    const previous = this.marking;
    this.marking = previous.then(() => this.markPublished(rows.map((r) => r.id)));
    this.log.debug({ published: rows.length }, 'outbox published');
    return rows.length;
  }

  /**
   * Marks sent rows published. A failed mark is only logged: the rows are on the topic, their
   * claim expires and they are sent again, as after a relay that died before marking them.
   */
  private async markPublished(ids: readonly number[]): Promise<void> {
    try {
      await this.db.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [ids]);
    } catch (err) {
      this.log.warn({ err, rows: ids.length }, 'sent outbox rows not marked published; they are sent again when their claim expires');
    }
  }

  /** Published rows only matter until they are on the topic: keep an hour for inspection, in bounded deletes. */
  private async cleanup(): Promise<void> {
    this.lastCleanup = Date.now();
    await this.db.query(
      `DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox WHERE published_at < now() - ($1::bigint * interval '1 millisecond') ORDER BY id LIMIT 10000)`,
      [this.keepPublishedMs],
    );
  }
}
