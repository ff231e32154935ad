import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer as KafkaConsumer } from 'kafkajs';
import type { Logger } from 'pino';

export interface SupervisedConsumerOptions {
  /** A fresh kafkajs consumer, its instrumentation listeners attached. */
  create(): KafkaConsumer;
  /** Connects, subscribes and runs it. */
  run(consumer: KafkaConsumer): Promise<void>;
  log: Logger;
}

const backoff = (attempt: number): number => Math.min(30_000, 1000 * 2 ** Math.min(attempt - 1, 5));

/**
 * A kafkajs consumer that is replaced when kafkajs gives up on it. kafkajs restarts a consumer
 * after retriable failures only; a long broker outage ends in a non-retriable one (the group
 * coordinator cannot be found) and the consumer stays dead. A stream processor must outlive
 * outages of any length, so a new consumer is created and run, with backoff, until one runs or
 * the owner stops.
 */
export class SupervisedConsumer {
  private consumer: KafkaConsumer;
  private stopped = false;
  private readonly stopping = new AbortController();
  private restarting: Promise<void> | null = null;

  constructor(private readonly options: SupervisedConsumerOptions) {
    this.consumer = this.attach(options.create());
  }

  /** The consumer currently running (seek, pause and resume go to it). */
  get current(): KafkaConsumer {
    return this.consumer;
  }

  run(): Promise<void> {
    return this.options.run(this.consumer);
  }

  /** Stops fetching; batches in flight finish. */
  async stop(): Promise<void> {
    this.halt();
    await this.restarting;
    await this.consumer.stop();
  }

  async disconnect(): Promise<void> {
    this.halt();
    await this.restarting;
    await this.consumer.disconnect();
  }

  private halt(): void {
    this.stopped = true;
    this.stopping.abort();
  }

  private attach(consumer: KafkaConsumer): KafkaConsumer {
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopped) return;
      this.restarting ??= this.replace(payload.error).finally(() => (this.restarting = null));
    });
    return consumer;
  }

  private async replace(err: Error): Promise<void> {
    this.options.log.error({ err }, 'kafkajs gave up on the consumer; starting a new one');
    await this.consumer.disconnect().catch(() => {});
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await sleep(backoff(attempt), undefined, { signal: this.stopping.signal });
      } catch {
        return; // stopped while waiting
      }
      const next = this.attach(this.options.create());
      this.consumer = next;
      try {
        await this.options.run(next);
        this.options.log.info({ attempt }, 'consumer restarted');
        return;
      } catch (e) {
        this.options.log.warn({ err: e, attempt }, 'consumer restart failed; trying again');
        await next.disconnect().catch(() => {});
      }
    }
  }
}
