import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { logger } from '../../logger.js';
import type { KafkaSockets } from './kafka-sockets.js';

/** Where a deployment's topics live: the brokers, and the prefix every topic name starts with. */
export interface KafkaSettings {
  brokers: string[];
  /** `brainstream.` by default; deployments (and test runs) sharing a broker use different ones. */
  topicPrefix: string;
}

export interface KafkaClientOptions {
  clientId: string;
  /**
   * How long a request keeps retrying through a broker outage. Long-running processes ride out
   * a broker restart and log what kafkajs reports (`long`); a CLI command fails within seconds
   * with one error line and keeps kafkajs quiet unless BRAINSTREAM_LOG_LEVEL asks (`short`).
   */
  patience?: 'short' | 'long';
  /** Records the client's sockets, so a long-running process can close what kafkajs leaks. */
  sockets?: KafkaSockets;
}

const PINO_LEVEL: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * Retries of the idempotent producer are bounded on purpose (a publish fails instead of hanging
 * through an outage; the relay retries by itself): a resend may then duplicate a message, which
 * consumers absorb because event ids are deterministic or rows are keyed.
 */
const EXPECTED = new Set(['Limiting retries for the idempotent producer may invalidate EoS guarantees']);

/** kafkajs logs through pino (stderr, JSON), with the kafkajs namespace as context. */
function pinoLogCreator() {
  const log = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }: LogEntry): void => {
      const { message, timestamp: _t, logger: _l, ...fields } = entry;
      if (EXPECTED.has(message)) return;
      log[PINO_LEVEL[level] ?? 'info']({ namespace, ...fields }, message);
    };
}

const longRetries = (): number => {
  const n = Number(process.env.BRAINSTREAM_KAFKA_RETRIES);
  return Number.isInteger(n) && n >= 1 ? n : 12;
};

/** A kafkajs client: warnings and errors only, logged through pino. */
export function createKafkaClient(settings: KafkaSettings, options: KafkaClientOptions): Kafka {
  const long = options.patience === 'long';
  return new Kafka({
    clientId: options.clientId,
    brokers: settings.brokers,
    logLevel: long || /^(info|debug|trace)$/.test(process.env.BRAINSTREAM_LOG_LEVEL ?? '') ? logLevel.WARN : logLevel.NOTHING,
    logCreator: pinoLogCreator(),
    connectionTimeout: 3000,
    ...(options.sockets ? { socketFactory: options.sockets.factory } : {}),
    // short: ~8 s of retries (kafkajs' default); long: about a minute (BRAINSTREAM_KAFKA_RETRIES,
    // default 12), after which a consumer kafkajs gives up on is replaced (SupervisedConsumer).
    retry: long ? { initialRetryTime: 300, maxRetryTime: 10_000, retries: longRetries() } : { initialRetryTime: 300, retries: 5 },
  });
}
