// One partition batch in one PostgreSQL transaction: the locked, compare-and-set offset that
// keeps a member that lost its partition from applying twice; seeks; dead letters; and whether
// per-partition state cached in memory may be trusted afterwards. PostgreSQL only (no broker).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaMessage } from 'kafkajs';
import type { Db } from '../../../src/db/db.js';
import { openPostgresDb } from '../../../src/db/postgres-db.js';
import { migrate } from '../../../src/db/migrate.js';
import { makeEvent } from '../../../src/domain/events.js';
import type { Consumer } from '../../../src/event-log/consumer.js';
import type { LoggedEvent } from '../../../src/event-log/event-log.js';
import { decodeMessage } from '../../../src/event-log/kafka/message-codec.js';
import { OutboxAppender } from '../../../src/event-log/kafka/outbox-appender.js';
import { applyPartitionBatch, applyPartitionBatches, type PartitionBatch, type PartitionCursor } from '../../../src/event-log/kafka/partition-batch.js';
import { postgresOrSkip } from '../../support/services.js';

const pg = await postgresOrSkip();

const TOPIC = 'bs.test.turns';

function message(offset: number, value: string | null): KafkaMessage {
  return { key: Buffer.from('s'), value: value === null ? null : Buffer.from(value), offset: String(offset), timestamp: '1777000000000', attributes: 0, headers: {} };
}

function turn(offset: number): KafkaMessage {
  const e = makeEvent('turn.appended', { session_id: 's', turn: offset + 1, role: 'user', text: `turn ${offset}`, source_id: 'default' }, { key: 's', at: '2026-05-04T09:00:00Z' });
  return message(offset, JSON.stringify(e));
}

function batch(group: string, messages: KafkaMessage[], partition = 0): PartitionBatch {
  return {
    key: { group, topic: TOPIC, partition },
    topic: 'turns',
    first: Number(messages[0]!.offset),
    last: Number(messages.at(-1)!.offset),
    messages: messages.map((m) => decodeMessage(TOPIC, 'turns', 0, m)),
  };
}

/** Records what it was given, and whether it was asked to start from the database. */
function recorder(onApply: (events: readonly LoggedEvent[]) => Promise<void> = async () => {}) {
  const seen: number[] = [];
  const staleCalls: boolean[] = [];
  const consumer: Consumer = {
    name: 'test.recorder',
    topics: ['turns'],
    async apply(_tx, events) {
      seen.push(...events.map((e) => e.position));
      await onApply(events);
    },
  };
  const work = {
    consumers: (stale: boolean) => {
      staleCalls.push(stale);
      return [consumer];
    },
    serialize: false,
    outbox: new OutboxAppender(),
  };
  return { seen, staleCalls, work };
}

const fresh = (): PartitionCursor => ({ fetchFrom: null, committed: null });

describe.skipIf(!pg)('a partition batch in one transaction (PostgreSQL)', () => {
  let db: Db;
  let other: Db;
  let n = 0;
  const group = (): string => `g${++n}`;
  const stored = async (g: string): Promise<number | undefined> =>
    (await db.query<{ next_offset: number }>('SELECT next_offset FROM kafka_offsets WHERE group_id = $1', [g]))[0]?.next_offset;

  beforeAll(async () => {
    db = openPostgresDb(pg!.url, { max: 2 });
    other = openPostgresDb(pg!.url, { max: 2 });
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await other?.close();
    await pg?.dropDatabase();
  });

  it('applies a batch and moves the stored offset past it, with the rows, in one transaction', async () => {
    const g = group();
    const r = recorder();
    const outcome = await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0), turn(1), turn(2)]), fresh(), r.work));
    expect(outcome).toMatchObject({ kind: 'applied', next: 3, events: 3, skipped: 0, current: true });
    expect(r.seen).toEqual([0, 1, 2]);
    expect(await stored(g)).toBe(3);
  });

  it('a member that lost its partition waits for the new owner, then applies nothing twice', async () => {
    const g = group();
    let release!: () => void;
    const parked = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const zombie = recorder(async () => {
      entered();
      await parked;
    });
    const owner = recorder();
    const b = batch(g, [turn(0), turn(1), turn(2), turn(3)]);
    // The old owner is inside its transaction (offset row locked) when the new owner starts.
    const first = db.transaction((tx) => applyPartitionBatch(tx, b, fresh(), zombie.work));
    await inside;
    const second = other.transaction((tx) => applyPartitionBatch(tx, b, fresh(), owner.work));
    release();
    expect(await first).toMatchObject({ kind: 'applied', next: 4, events: 4 });
    expect(await second).toMatchObject({ kind: 'applied', next: 4, events: 0, skipped: 4 });
    expect(zombie.seen).toEqual([0, 1, 2, 3]);
    expect(owner.seen).toEqual([]);
    expect(await stored(g)).toBe(4);
  });

  it('applies only what another member has not, starting stateful consumers from the database', async () => {
    const g = group();
    await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0), turn(1)]), fresh(), recorder().work));
    const r = recorder();
    // This process last committed offset 1 (its cache is from then); another member reached 2.
    const outcome = await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(1), turn(2), turn(3)]), { fetchFrom: 1, committed: 1 }, r.work));
    expect(outcome).toMatchObject({ kind: 'applied', next: 4, events: 2, skipped: 1, current: true });
    expect(r.seen).toEqual([2, 3]);
    expect(r.staleCalls).toEqual([true]);
  });

  it('a batch another member already applied in full leaves the cached state marked not current', async () => {
    const g = group();
    await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0), turn(1), turn(2)]), fresh(), recorder().work));
    const r = recorder();
    const outcome = await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(1), turn(2)]), { fetchFrom: 1, committed: 1 }, r.work));
    // Nothing applied here: whatever this process cached is from offset 1, not 3.
    expect(outcome).toMatchObject({ kind: 'applied', next: 3, events: 0, skipped: 2, current: false });
    expect(r.seen).toEqual([]);
  });

  it('seeks instead of applying when the stored offset is past the batch or behind the fetch position', async () => {
    const g = group();
    await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0), turn(1), turn(2), turn(3), turn(4)]), fresh(), recorder().work));
    const ahead = await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0), turn(1)]), fresh(), recorder().work));
    expect(ahead).toEqual({ kind: 'seek', offset: 5 });
    await db.query('UPDATE kafka_offsets SET next_offset = 2 WHERE group_id = $1', [g]);
    const rewound = await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(5)]), { fetchFrom: 5, committed: 5 }, recorder().work));
    expect(rewound).toEqual({ kind: 'seek', offset: 2 });
  });

  it('commits the batches of one fetch together: each partition claimed on its own, each consumer applied once', async () => {
    const g = group();
    await db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0), turn(1)], 1), fresh(), recorder().work));
    const calls: number[][] = [];
    const r = recorder(async (events) => void calls.push(events.map((e) => e.position)));
    const items = [
      { batch: batch(g, [turn(0), turn(1), turn(2)], 1), cursor: fresh() }, // 0 and 1 were applied already
      { batch: batch(g, [turn(5), turn(6)], 0), cursor: fresh() },
      { batch: batch(g, [turn(0)], 2), cursor: { fetchFrom: 9, committed: 9 } }, // stored 0 < fetch position: rewound
    ];
    // The third partition's row exists at 0 (rewound by an operator).
    await db.query('INSERT INTO kafka_offsets (group_id, topic, partition, next_offset) VALUES ($1, $2, 2, 0)', [g, TOPIC]);
    const outcomes = await db.transaction((tx) => applyPartitionBatches(tx, items, () => r.work));
    expect(outcomes).toEqual([
      expect.objectContaining({ kind: 'applied', next: 3, events: 1, skipped: 2 }),
      expect.objectContaining({ kind: 'applied', next: 7, events: 2, skipped: 0 }),
      { kind: 'seek', offset: 0 },
    ]);
    expect(calls).toEqual([[2, 5, 6]]);
  });

  it('keeps poison messages in dead_letters and the dlq outbox with topic, partition, offset and reason; the rest applies', async () => {
    const g = group();
    const unknownVersion = JSON.stringify({ ...JSON.parse(turn(3).value!.toString()), v: 9 });
    const wrongSchema = JSON.stringify({ ...JSON.parse(turn(2).value!.toString()), data: { session_id: 's' } });
    const r = recorder();
    const b = batch(g, [turn(0), message(1, 'not json {'), message(2, wrongSchema), message(3, unknownVersion), message(4, 'nul\u0000byte'), turn(5)]);
    const outcome = await db.transaction((tx) => applyPartitionBatch(tx, b, fresh(), r.work));
    expect(outcome).toMatchObject({ kind: 'applied', next: 6, events: 2, dead: 4 });
    expect(r.seen).toEqual([0, 5]);
    const dead = await db.query<{ origin: string; partition: number; offset: string; reason: string }>(
      `SELECT origin, partition, "offset", reason FROM dead_letters WHERE origin = $1 ORDER BY "offset"::int`,
      [TOPIC],
    );
    expect(dead.map((d) => [d.origin, d.partition, d.offset])).toEqual([1, 2, 3, 4].map((o) => [TOPIC, 0, String(o)]));
    expect(dead[0]!.reason).toMatch(/^not JSON/);
    expect(dead[1]!.reason).toMatch(/^invalid turn\.appended v2: /);
    expect(dead[2]!.reason).toBe('unknown version 9 of event type "turn.appended"');
    const dlq = await db.query<{ topic: string; payload: { type: string; data: { origin: string; offset: string; reason: string } } }>(
      `SELECT topic, payload FROM outbox WHERE topic = 'dlq' ORDER BY id`,
    );
    expect(dlq.map((o) => [o.payload.type, o.payload.data.origin, o.payload.data.offset])).toEqual([1, 2, 3, 4].map((o) => ['dead_letter.recorded', TOPIC, String(o)]));
  });
  it('batches of events that commute hold the projection lock shared: side by side, while any other batch waits for them', async () => {
    const g = group();
    const entered: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let bothInside!: () => void;
    const bothIn = new Promise<void>((resolve) => (bothInside = resolve));
    // Each commuting batch waits inside its transaction until both are in: only a shared lock lets the second in.
    const holding = (name: string) => ({
      ...recorder(async () => {
        entered.push(name);
        if (entered.length === 2) bothInside();
        await released;
      }).work,
      serialize: true,
      commutes: (e: LoggedEvent) => e.event.type === 'turn.appended',
    });
    const first = db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0)], 0), fresh(), holding('p0')));
    const second = other.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0)], 1), fresh(), holding('p1')));
    await bothIn;
    const exclusive = { ...recorder(async () => void entered.push('p2')).work, serialize: true, commutes: () => false };
    const third = db.transaction((tx) => applyPartitionBatch(tx, batch(g, [turn(0)], 2), fresh(), exclusive));
    // The third batch is queued on the projection lock behind the two holding it.
    while ((await other.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`))[0]!.n === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(entered.sort()).toEqual(['p0', 'p1']);
    release();
    await Promise.all([first, second, third]);
    expect(entered).toEqual(['p0', 'p1', 'p2']);
  });
});
