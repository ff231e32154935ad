import { BrainstreamError } from '../../errors.js';

/** kafkajs errors that mean the brokers could not be reached or could not take the request now. */
const UNAVAILABLE = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSLockTimeout',
  'KafkaJSMetadataNotLoaded',
]);

interface KafkaJsError {
  name?: unknown;
  message?: unknown;
  retriable?: unknown;
  originalError?: unknown;
  cause?: unknown;
}

/** The error and the errors it wraps (kafkajs keeps the last attempt's error in `originalError`). */
function* chain(err: unknown): Generator<KafkaJsError> {
  const seen = new Set<unknown>();
  let e = err;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    yield e as KafkaJsError;
    e = (e as KafkaJsError).originalError ?? (e as KafkaJsError).cause;
  }
}

const unavailable = (e: KafkaJsError): boolean =>
  typeof e.name === 'string' && (UNAVAILABLE.has(e.name) || (e.name === 'KafkaJSProtocolError' && e.retriable === true));

/**
 * A kafkajs failure to reach the brokers — refused, timed out, no leader, not enough in-sync
 * replicas, retries exhausted — as one `kafka_unavailable` error saying why (the innermost reason);
 * anything else is returned as it was.
 */
export function asKafkaUnavailable(err: unknown): unknown {
  if (err instanceof BrainstreamError) return err;
  const errors = [...chain(err)];
  if (!errors.some(unavailable)) return err;
  const reason = errors.map((e) => (typeof e.message === 'string' ? e.message : '')).filter((m) => m !== '').at(-1) ?? 'no answer';
  return new BrainstreamError('kafka_unavailable', `the Kafka brokers did not answer: ${reason.split('\n')[0]}`);
}
