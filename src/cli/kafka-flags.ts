import type { Command } from 'commander';
import { DEFAULT_PG_SCHEMA, isValidSchemaName } from '../db/pg-schema.js';
import { UsageError } from '../errors.js';
import type { KafkaSettings } from '../event-log/kafka/kafka-client.js';
import { cliIo } from '../command-io.js';
import { parseIntegerFlag } from './flags.js';

/** The flags every distributed-mode command shares. `kafka` is true for a bare `serve --kafka`. */
export interface KafkaFlags {
  kafka?: string | boolean;
  topicPrefix?: string;
  database?: string;
  schema?: string;
  group?: string;
}

const DEFAULT_TOPIC_PREFIX = 'brainstream.';

/** The processors' consumer group of a deployment unless `--group` names another. */
const defaultGroup = (topicPrefix: string): string => `${topicPrefix}serve`;

/** Parses `host:port[,host:port…]`; empty entries are dropped. */
function parseBrokers(value: string): string[] {
  return value
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
}

const env = (): Readonly<Record<string, string | undefined>> => cliIo().env ?? process.env;

/** Adds `--kafka`, `--topic-prefix` and, when the command needs PostgreSQL, `--database`. */
export function withKafkaOptions(cmd: Command, needs: { database?: boolean } = {}): Command {
  cmd
    .option('--kafka <brokers>', 'Kafka brokers, host:port[,host:port…] (default: KAFKA_BROKERS)')
    .option('--topic-prefix <prefix>', `prefix of every topic name (default: ${DEFAULT_TOPIC_PREFIX})`);
  if (needs.database) withDatabaseOptions(cmd);
  return cmd;
}

export const SCHEMA_OPTION_HELP = `PostgreSQL schema of the deployment's tables (default: BRAINSTREAM_PG_SCHEMA or ${DEFAULT_PG_SCHEMA})`;

/** Adds `--database` and `--schema`. */
export function withDatabaseOptions(cmd: Command, prefix = ''): Command {
  return cmd
    .option('--database <url>', `${prefix}PostgreSQL URL of the projections and offsets (default: DATABASE_URL)`)
    .option('--schema <name>', `${prefix}${SCHEMA_OPTION_HELP}`);
}

/** `--schema`, BRAINSTREAM_PG_SCHEMA, or `brainstream`; a usage error when it is no plain lower-case identifier. */
export function pgSchema(flags: KafkaFlags): string {
  const fromEnv = env().BRAINSTREAM_PG_SCHEMA;
  const name = flags.schema ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_PG_SCHEMA);
  if (!isValidSchemaName(name)) {
    const source = flags.schema !== undefined ? '--schema' : 'BRAINSTREAM_PG_SCHEMA';
    throw new UsageError(`${source} expects a lower-case identifier (letters, digits, "_"; not starting with a digit or pg_), got ${JSON.stringify(name)}`);
  }
  return name;
}

/** Brokers from `--kafka` (a value) or KAFKA_BROKERS; the topic prefix; usage errors when missing or invalid. */
export function kafkaSettings(flags: KafkaFlags): KafkaSettings {
  const raw = typeof flags.kafka === 'string' ? flags.kafka : env().KAFKA_BROKERS ?? '';
  const brokers = parseBrokers(raw);
  if (brokers.length === 0) throw new UsageError('no Kafka brokers: pass --kafka host:port or set KAFKA_BROKERS');
  for (const b of brokers) if (!/^[^\s:]+:\d+$/.test(b)) throw new UsageError(`--kafka expects host:port[,host:port…], got ${JSON.stringify(b)}`);
  const topicPrefix = flags.topicPrefix ?? DEFAULT_TOPIC_PREFIX;
  if (!/^[A-Za-z0-9._-]{0,200}$/.test(topicPrefix)) {
    throw new UsageError(`--topic-prefix expects letters, digits, ".", "_" or "-", got ${JSON.stringify(topicPrefix)}`);
  }
  return { brokers, topicPrefix };
}

/** `--database` or DATABASE_URL. */
export function databaseUrl(flags: KafkaFlags): string {
  const url = flags.database ?? env().DATABASE_URL ?? '';
  if (url.trim() === '') throw new UsageError('no database: pass --database postgres://… or set DATABASE_URL');
  return url;
}

export function groupOf(flags: KafkaFlags, topicPrefix: string): string {
  if (flags.group === undefined) return defaultGroup(topicPrefix);
  if (flags.group.trim() === '' || flags.group.length > 249) throw new UsageError('--group expects a non-empty group id of at most 249 characters');
  return flags.group;
}

/** A positive integer flag, or the default. */
export function positiveFlag(flag: string, value: string | undefined, fallback?: number): number | undefined {
  const n = parseIntegerFlag(flag, value);
  if (n === undefined) return fallback;
  if (n < 0) throw new UsageError(`${flag} expects a number ≥ 0, got ${JSON.stringify(value)}`);
  return n;
}
