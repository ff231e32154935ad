import { describe, expect, it } from 'vitest';
import { asDatabaseUnavailable } from '../../../src/db/database-unavailable.js';
import { BrainstreamError } from '../../../src/errors.js';
import { asKafkaUnavailable } from '../../../src/event-log/kafka/kafka-unavailable.js';

const kafkaError = (name: string, message: string, extra: Record<string, unknown> = {}): Error => Object.assign(new Error(message), { name, ...extra });

describe('asKafkaUnavailable', () => {
  it('names the innermost reason of retries that ran out', () => {
    const inner = kafkaError('KafkaJSConnectionError', 'Connection error: connect ECONNREFUSED 127.0.0.1:1');
    const outer = kafkaError('KafkaJSNumberOfRetriesExceeded', 'Connection error: connect ECONNREFUSED 127.0.0.1:1', { originalError: inner });
    const mapped = asKafkaUnavailable(outer) as BrainstreamError;
    expect(mapped).toBeInstanceOf(BrainstreamError);
    expect(mapped.code).toBe('kafka_unavailable');
    expect(mapped.message).toBe('the Kafka brokers did not answer: Connection error: connect ECONNREFUSED 127.0.0.1:1');
  });

  it('a retriable protocol error (not enough in-sync replicas) is unavailability; a non-retriable one is not', () => {
    expect((asKafkaUnavailable(kafkaError('KafkaJSProtocolError', 'Messages are rejected since there are fewer in-sync replicas than required', { retriable: true })) as BrainstreamError).code).toBe('kafka_unavailable');
    const invalid = kafkaError('KafkaJSProtocolError', 'The request attempted to perform an operation on an invalid topic', { retriable: false });
    expect(asKafkaUnavailable(invalid)).toBe(invalid);
  });

  it('leaves other errors alone', () => {
    const other = new Error('boom');
    expect(asKafkaUnavailable(other)).toBe(other);
    const ours = new BrainstreamError('owner_only', 'no');
    expect(asKafkaUnavailable(ours)).toBe(ours);
  });
});

describe('asDatabaseUnavailable', () => {
  it('a refused connection names the server without its credentials', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const mapped = asDatabaseUnavailable(refused, 'postgres://admin:secret@127.0.0.1:1/app') as BrainstreamError;
    expect(mapped.code).toBe('database_unavailable');
    expect(mapped.message).toBe('PostgreSQL at 127.0.0.1:1/app is unreachable: connect ECONNREFUSED 127.0.0.1:1');
    expect(mapped.message).not.toContain('secret');
  });

  it('a refused login or a missing database is unavailability; a SQL error is not', () => {
    expect((asDatabaseUnavailable(Object.assign(new Error('database "x" does not exist'), { code: '3D000' }), 'postgres://h/x') as BrainstreamError).code).toBe('database_unavailable');
    expect((asDatabaseUnavailable(Object.assign(new Error('password authentication failed'), { code: '28P01' }), 'postgres://h/x') as BrainstreamError).code).toBe('database_unavailable');
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    expect(asDatabaseUnavailable(syntax, 'postgres://h/x')).toBe(syntax);
  });
});
