/**
 * Real PostgreSQL and Kafka for integration tests.
 *
 * Where each service comes from, first match wins:
 *   1. the environment: DATABASE_URL (any database on the server: each caller gets its own
 *      fresh database there) and KAFKA_BROKERS (comma-separated host:port list);
 *   2. a Docker engine, when one answers: a postgres:15 / apache/kafka 4.x (KRaft) container
 *      started with testcontainers, kept running and reused by later test files and runs
 *      (remove with `docker rm -f $(docker ps -aq --filter label=brainstream.test=true)`);
 *   3. under CI (CI set and not "false"/"0"): an Error, so the test file fails loudly;
 *   4. anywhere else (a laptop): a skip, announced with console.warn saying what to set.
 * A service named in the environment that does not answer is an Error, never a skip.
 *
 * No Docker? `bash infra/kafka/start.sh` runs a real broker (Java 17 + Maven) and prints
 * KAFKA_BROKERS=127.0.0.1:9092; see infra/README.md.
 *
 * Simplest use: servicesOrSkip() at the top level of a test file. It skips the file's
 * suites when a service is missing and drops the database / deletes the topics after all
 * tests of the file (it registers an afterAll hook itself).
 *
 *   import { describe, expect, it } from 'vitest';
 *   import postgres from 'postgres';
 *   import { servicesOrSkip } from '../../support/services.js';
 *
 *   const svc = await servicesOrSkip({ postgres: true, kafka: true });
 *
 *   describe.skipIf(svc.skip)('projection writer', () => {
 *     it('reads what it wrote', async () => {
 *       const sql = postgres(svc.pg.url);          // this file's own database
 *       const topic = svc.kafka.topic('events');    // 'bstest.<random>.events'
 *       // create topics explicitly (auto-creation is off): admin.createTopics(...)
 *     });
 *   });
 *
 * One service at a time, with explicit cleanup:
 *
 *   const pg = await postgresOrSkip();              // PostgresDatabase | undefined
 *   describe.skipIf(!pg)('store', () => {
 *     afterAll(() => pg?.dropDatabase());
 *     it('...', async () => { const sql = postgres(pg!.url); ... });
 *   });
 *
 * vitest still runs the body of a skipped describe (to collect its tests): read pg / kafka /
 * svc.pg / svc.kafka only inside hooks and tests, never directly in a describe body.
 *
 * requirePostgres() / requireKafka() do the same without the skip handling: on a laptop
 * without the service they throw a ServiceSkip (see isServiceSkip()).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import postgres from 'postgres';
import { afterAll } from 'vitest';

/** Image of the Kafka container used when Docker is the source; matches infra/kafka/pom.xml. */
export const KAFKA_IMAGE = process.env.BRAINSTREAM_KAFKA_IMAGE ?? 'apache/kafka:4.4.0';
/** Image of the PostgreSQL container used when Docker is the source. */
export const POSTGRES_IMAGE = process.env.BRAINSTREAM_POSTGRES_IMAGE ?? 'postgres:15';

export type ServiceName = 'postgres' | 'kafka';

/** A fresh database of this caller's own on the shared PostgreSQL server. */
export interface PostgresDatabase {
  /** Connection URL of the fresh database. */
  readonly url: string;
  /** Its name: bs_<random>. */
  readonly database: string;
  /** Drops the database WITH (FORCE), closing connections still open to it. Idempotent. */
  dropDatabase(): Promise<void>;
}

/** The shared Kafka broker, with a topic prefix of this caller's own. */
export interface KafkaTopics {
  /** host:port list for kafkajs `brokers`. */
  readonly brokers: string[];
  /** Unique per call: `bstest.<random>.`; put every topic of the test under it. */
  readonly topicPrefix: string;
  /** topicPrefix + name. */
  topic(name: string): string;
  /** Deletes every topic whose name starts with topicPrefix. Idempotent. */
  deleteTopics(): Promise<void>;
}

/** Thrown by requirePostgres()/requireKafka() when a service is missing outside CI. */
export class ServiceSkip extends Error {
  readonly service: ServiceName;
  constructor(service: ServiceName, message: string) {
    super(message);
    this.name = 'ServiceSkip';
    this.service = service;
  }
}

export function isServiceSkip(error: unknown): error is ServiceSkip {
  return error instanceof ServiceSkip;
}

// ---------------------------------------------------------------------------------------
// PostgreSQL

const POSTGRES_HOW =
  'set DATABASE_URL (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres; any database ' +
  'on the server: each test file creates its own), or start a Docker engine';

/** A fresh database (bs_<random>) on the PostgreSQL server; see the top of this file. */
export async function requirePostgres(): Promise<PostgresDatabase> {
  const baseUrl = await postgresServerUrl();
  const database = `bs_${randomBytes(6).toString('hex')}`;
  await withServerConnection(baseUrl, async (sql) => {
    // CREATE DATABASE fails with 55006 while another session is connected to the template;
    // that is short-lived on a shared server, so retry a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        await sql.unsafe(`CREATE DATABASE "${database}"`);
        // The creation time lets a cleanup tell abandoned databases from live ones.
        await sql.unsafe(`COMMENT ON DATABASE "${database}" IS 'brainstream test database, created ${new Date().toISOString()}'`);
        return;
      } catch (error) {
        if (pgCode(error) !== '55006' || attempt >= 10) throw error;
        await sleep(200 * attempt);
      }
    }
  }).catch((error: unknown) => {
    throw new Error(`cannot create database ${database} on ${redact(baseUrl)}: ${describeError(error)}`, {
      cause: error,
    });
  });

  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  let dropped = false;
  return {
    url: url.toString(),
    database,
    async dropDatabase() {
      if (dropped) return;
      await withServerConnection(baseUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
      dropped = true;
    },
  };
}

/** requirePostgres(), or undefined (after a console.warn) when PostgreSQL is missing outside CI. */
export async function postgresOrSkip(): Promise<PostgresDatabase | undefined> {
  return orSkip(requirePostgres);
}

let postgresServer: Promise<string> | undefined;

function postgresServerUrl(): Promise<string> {
  postgresServer ??= findPostgresServer();
  return postgresServer;
}

async function findPostgresServer(): Promise<string> {
  const fromEnv = process.env.DATABASE_URL?.trim();
  if (fromEnv) {
    try {
      await withServerConnection(fromEnv, (sql) => sql`select 1`);
    } catch (error) {
      throw new Error(`DATABASE_URL=${redact(fromEnv)} does not answer: ${describeError(error)}`, { cause: error });
    }
    return fromEnv;
  }
  if (await dockerEngineAnswers()) return startPostgresContainer();
  if (isCi()) {
    throw new Error('DATABASE_URL is not set and no Docker engine: CI must provide PostgreSQL');
  }
  throw new ServiceSkip('postgres', `PostgreSQL: DATABASE_URL is not set and no Docker engine answers; ${POSTGRES_HOW}`);
}

async function startPostgresContainer(): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(POSTGRES_IMAGE)
    .withEnvironment({ POSTGRES_USER: 'postgres', POSTGRES_PASSWORD: 'postgres', POSTGRES_DB: 'postgres' })
    .withExposedPorts(5432)
    .withTmpFs({ '/var/lib/postgresql/data': 'rw' })
    .withCommand(['postgres', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=300'])
    .withLabels({ 'brainstream.test': 'true' })
    // The entrypoint starts the server twice (init, then for real): wait for the second.
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .withStartupTimeout(120_000)
    .withReuse()
    .start();
  const url = `postgres://postgres:postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  await retryFor(30_000, () => withServerConnection(url, (sql) => sql`select 1`));
  return url;
}

async function withServerConnection<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, connect_timeout: 10, idle_timeout: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

// ---------------------------------------------------------------------------------------
// Kafka

const KAFKA_HOW =
  'run `bash infra/kafka/start.sh` (a real broker, no Docker: Java 17 + Maven) and set ' +
  'KAFKA_BROKERS=127.0.0.1:9092, or start a Docker engine';

/** The shared broker plus a topic prefix unique to this call; see the top of this file. */
export async function requireKafka(): Promise<KafkaTopics> {
  const brokers = await kafkaBrokers();
  const topicPrefix = `bstest.${randomBytes(5).toString('hex')}.`;
  return {
    brokers: [...brokers],
    topicPrefix,
    topic: (name: string) => `${topicPrefix}${name}`,
    async deleteTopics() {
      await withAdmin(brokers, async (admin) => {
        const mine = (await admin.listTopics()).filter((t) => t.startsWith(topicPrefix));
        if (mine.length > 0) await admin.deleteTopics({ topics: mine, timeout: 15_000 });
      });
    },
  };
}

/** requireKafka(), or undefined (after a console.warn) when Kafka is missing outside CI. */
export async function kafkaOrSkip(): Promise<KafkaTopics | undefined> {
  return orSkip(requireKafka);
}

let kafkaServer: Promise<string[]> | undefined;

function kafkaBrokers(): Promise<string[]> {
  kafkaServer ??= findKafka();
  return kafkaServer;
}

async function findKafka(): Promise<string[]> {
  const fromEnv = process.env.KAFKA_BROKERS?.trim();
  if (fromEnv) {
    const brokers = fromEnv
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);
    try {
      await retryFor(10_000, () => withAdmin(brokers, (admin) => admin.listTopics()));
    } catch (error) {
      throw new Error(
        `KAFKA_BROKERS=${fromEnv} does not answer (${describeError(error)}); ` +
          'start the local broker with `bash infra/kafka/start.sh`',
        { cause: error },
      );
    }
    return brokers;
  }
  if (await dockerEngineAnswers()) return [await startKafkaContainer()];
  if (isCi()) {
    throw new Error('KAFKA_BROKERS is not set and no Docker engine: CI must provide Kafka');
  }
  throw new ServiceSkip('kafka', `Kafka: KAFKA_BROKERS is not set and no Docker engine answers; ${KAFKA_HOW}`);
}

const KAFKA_STARTER = '/tmp/brainstream-start.sh';

/**
 * apache/kafka in KRaft mode, single node. The advertised address must name the host port
 * Docker picked, known only once the container runs: the container waits for a starter
 * script that is copied in after start (the way testcontainers' own Kafka module works).
 */
async function startKafkaContainer(): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const waiting = 'brainstream: waiting for the starter script';
  const container = await new GenericContainer(KAFKA_IMAGE)
    .withEnvironment({
      CLUSTER_ID: 'YnJhaW5zdHJlYW0tdGVzdA',
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://0.0.0.0:9092,BROKER://0.0.0.0:19092,CONTROLLER://0.0.0.0:9093',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,BROKER:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '10',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR: '1',
      KAFKA_LOG_DIRS: '/tmp/kraft-combined-logs',
    })
    .withExposedPorts(9092)
    .withLabels({ 'brainstream.test': 'true' })
    .withEntrypoint(['sh'])
    .withCommand([
      '-c',
      `echo '${waiting}'; while [ ! -f ${KAFKA_STARTER} ]; do sleep 0.1; done; exec sh ${KAFKA_STARTER}`,
    ])
    .withWaitStrategy(Wait.forLogMessage(waiting))
    .withStartupTimeout(120_000)
    .withReuse()
    .start();

  const host = container.getHost();
  const port = container.getMappedPort(9092);
  const broker = `${host}:${port}`;
  const present = await container.exec(['test', '-f', KAFKA_STARTER]);
  if (present.exitCode !== 0) {
    await container.copyContentToContainer([
      {
        content:
          `export KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://${broker},BROKER://localhost:19092\n` +
          'exec /etc/kafka/docker/run\n',
        target: KAFKA_STARTER,
        mode: 0o755,
      },
    ]);
  }
  try {
    await retryFor(90_000, () => withAdmin([broker], (admin) => admin.listTopics()));
  } catch (error) {
    throw new Error(
      `the Kafka container (${KAFKA_IMAGE}) did not answer on ${broker}: ${describeError(error)}. ` +
        'If it was reused after a Docker restart, remove it: ' +
        'docker rm -f $(docker ps -aq --filter label=brainstream.test=true)',
      { cause: error },
    );
  }
  return broker;
}

async function withAdmin<T>(brokers: string[], fn: (admin: Admin) => Promise<T>): Promise<T> {
  const kafka = new Kafka({
    clientId: 'brainstream-test-services',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    retry: { retries: 2 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------
// Both at once

export interface ServiceNeeds {
  postgres?: boolean;
  kafka?: boolean;
}

export interface Services {
  /** True when a needed service is missing (outside CI): use describe.skipIf(svc.skip). */
  readonly skip: boolean;
  /** This file's own database; throws if postgres was not asked for or the file is skipped. */
  readonly pg: PostgresDatabase;
  /** Broker and topic prefix; throws if kafka was not asked for or the file is skipped. */
  readonly kafka: KafkaTopics;
  /** Drops the database and deletes the prefixed topics (already registered with afterAll). */
  cleanup(): Promise<void>;
}

/**
 * The services a test file needs, at its top level: `const svc = await servicesOrSkip({...})`.
 * Registers an afterAll hook that cleans up; under CI a missing service throws.
 */
export async function servicesOrSkip(needs: ServiceNeeds): Promise<Services> {
  // Find the servers first (both, so one warning names everything missing), then take a
  // database and a topic prefix only when nothing is missing.
  const missing: ServiceSkip[] = [];
  const find = async (service: () => Promise<unknown>) => {
    try {
      await service();
    } catch (error) {
      if (!isServiceSkip(error)) throw error;
      missing.push(error);
    }
  };
  await Promise.all([needs.postgres ? find(postgresServerUrl) : undefined, needs.kafka ? find(kafkaBrokers) : undefined]);

  let pg: PostgresDatabase | undefined;
  let kafka: KafkaTopics | undefined;
  if (missing.length > 0) {
    warnSkip(missing);
  } else {
    if (needs.postgres) pg = await requirePostgres();
    if (needs.kafka) kafka = await requireKafka();
  }
  const skip = missing.length > 0;
  const cleanup = async () => {
    await Promise.all([pg?.dropDatabase(), kafka?.deleteTopics()]);
  };
  if (!skip) afterAll(cleanup);

  const unavailable = (what: ServiceName): never => {
    throw new Error(
      skip
        ? `${what} is unavailable: this file's suites must be skipped (describe.skipIf(svc.skip))`
        : `${what} was not requested: servicesOrSkip({ ${what}: true })`,
    );
  };
  return {
    skip,
    get pg() {
      return skip || !pg ? unavailable('postgres') : pg;
    },
    get kafka() {
      return skip || !kafka ? unavailable('kafka') : kafka;
    },
    cleanup,
  };
}

// ---------------------------------------------------------------------------------------
// Helpers

async function orSkip<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    if (!isServiceSkip(error)) throw error;
    warnSkip([error]);
    return undefined;
  }
}

function warnSkip(missing: ServiceSkip[]): void {
  const lines = missing.map((m) => `  - ${m.message}`).join('\n');
  console.warn(`[test services] SKIPPING this file's suites (outside CI a missing service skips):\n${lines}`);
}

function isCi(): boolean {
  const ci = process.env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

let dockerAnswers: Promise<boolean> | undefined;

/** True when a Docker engine answers. Loads testcontainers only where Docker is configured. */
function dockerEngineAnswers(): Promise<boolean> {
  dockerAnswers ??= probeDocker();
  return dockerAnswers;
}

async function probeDocker(): Promise<boolean> {
  const dockerHost = process.env.DOCKER_HOST?.trim();
  if (dockerHost) {
    if (dockerHost.startsWith('unix://')) return pingDocker({ socketPath: dockerHost.slice('unix://'.length) });
    if (/^(tcp|http|https):\/\//.test(dockerHost)) {
      const url = new URL(dockerHost.replace(/^tcp:/, 'http:'));
      const port = Number(url.port || (process.env.DOCKER_TLS_VERIFY ? 2376 : 2375));
      // With TLS a plain ping cannot work; a TCP connect is enough to hand over to testcontainers.
      if (process.env.DOCKER_TLS_VERIFY || url.protocol === 'https:') return tcpConnects(url.hostname, port);
      return pingDocker({ host: url.hostname, port });
    }
    return testcontainersFindsDocker(); // ssh://, npipe://: let testcontainers decide
  }
  const home = homedir();
  const runtimeDir = process.env.XDG_RUNTIME_DIR;
  const sockets = [
    '/var/run/docker.sock',
    join(home, '.docker/run/docker.sock'),
    join(home, '.docker/desktop/docker.sock'),
    join(home, '.colima/default/docker.sock'),
    join(home, '.rd/docker.sock'),
    ...(runtimeDir ? [join(runtimeDir, 'docker.sock'), join(runtimeDir, 'podman/podman.sock')] : []),
  ];
  for (const socketPath of sockets) {
    if (existsSync(socketPath) && (await pingDocker({ socketPath }))) return true;
  }
  if (existsSync(join(home, '.testcontainers.properties'))) return testcontainersFindsDocker();
  return false;
}

function pingDocker(target: { socketPath: string } | { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

async function testcontainersFindsDocker(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function retryFor<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await sleep(500);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparsable URL>';
  }
}

function describeError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describeError(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
