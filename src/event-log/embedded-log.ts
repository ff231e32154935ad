import type { Db } from '../db/db.js';
import { decodeEvent, topicOf, type Envelope, type EventType, type Topic } from '../domain/events.js';
import { AppendedTail, type TailRow } from './appended-tail.js';
import type { EventLog, LoggedEvent, ReadBatch, UndecodableEntry } from './event-log.js';

interface EventRow {
  seq: number;
  id: string;
  topic: string;
  type: string;
  v: number;
  key: string;
  at: Date | string;
  data: unknown;
}

/** One entry as `readSpan` aggregates it. */
type SpanRow = [seq: number, id: string, topic: string, type: string, v: number, key: string, at: string, data: unknown];

/** The embedded log: the `events` table, one global sequence across topics. */
export class EmbeddedEventLog implements EventLog {
  constructor(private readonly db: Db) {}

  /** What this log appended lately, so reading it back right after need not fetch the rows. */
  private readonly tail = new AppendedTail<DecodedRows>();

  /**
   * Appends a batch in one statement: the rows travel as one JSON parameter (cheaper than
   * thousands of bound parameters). An id already in the log is skipped (idempotent retry).
   */
  async append(events: readonly Envelope[], tx: Db = this.db): Promise<void> {
    if (events.length === 0) return;
    const rows = events.map((e) => ({ id: e.id, topic: topicOf(e.type as EventType), type: e.type, v: e.v, key: e.key, at: e.at, data: e.data }));
    const stored = await tx.query<{ seq: number; id: string }>(
      `INSERT INTO events (id, topic, type, v, key, at, data)
       SELECT id, topic, type, v, key, at, data
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (id text, topic text, type text, v int, key text, at timestamptz, data jsonb))
              WITH ORDINALITY AS x(id, topic, type, v, key, at, data, n)
       ORDER BY n
       ON CONFLICT (id) DO NOTHING
       RETURNING seq, id`,
      [rows],
    );
    this.tail.remember(rows, new Map(stored.map((r) => [r.id, Number(r.seq)])));
  }

  async read(from: number, options: { topics?: readonly Topic[]; limit?: number } = {}, tx: Db = this.db): Promise<ReadBatch> {
    const limit = options.limit ?? 5000;
    const params: unknown[] = [from, limit];
    let where = 'seq >= $1';
    if (options.topics) {
      params.push(options.topics);
      where += ` AND topic = ANY($3::text[])`;
    }
    if (this.tail.size > 0) return this.readThroughTail(from, where, params, tx);
    const rows = await tx.query<EventRow>(
      `SELECT seq, id, topic, type, v, key, at, data FROM events WHERE ${where} ORDER BY seq LIMIT $2`,
      params,
    );
    const last = rows.at(-1);
    return { ...decodeRows(rows), next: last ? last.seq + 1 : from };
  }

  /**
   * The same read, with the entries this log appended lately taken from its tail: the table is
   * asked only for the positions in range, and for the rows of those the tail does not hold.
   */
  private async readThroughTail(from: number, where: string, params: unknown[], tx: Db): Promise<ReadBatch> {
    const positions = (await tx.query<{ seq: number }>(`SELECT seq FROM events WHERE ${where} ORDER BY seq LIMIT $2`, params)).map((r) => Number(r.seq));
    const missing = positions.filter((seq) => this.tail.get(seq) === undefined);
    const fetched = new Map<number, EventRow>();
    if (missing.length > 0) {
      const rows = await tx.query<EventRow>('SELECT seq, id, topic, type, v, key, at, data FROM events WHERE seq = ANY($1::bigint[])', [missing]);
      for (const row of rows) fetched.set(Number(row.seq), row);
    }
    const events: LoggedEvent[] = [];
    const rejected: UndecodableEntry[] = [];
    for (const seq of positions) {
      const entry = this.tail.get(seq);
      const row = fetched.get(seq);
      // A tail entry is decoded once, at its first read, and never changes; its readers only read it.
      const one = entry ? (entry.decoded ??= decodeRows([tailRow(entry)])) : decodeRows(row ? [row] : []);
      events.push(...one.events);
      rejected.push(...one.rejected);
    }
    const last = positions.at(-1);
    return { events, rejected, next: last !== undefined ? last + 1 : from };
  }

  /**
   * Every entry of the topics with a position in [from, to), in order: for reading the whole
   * log (replay). The rows come aggregated to one JSON text, because PGlite hands rows over one
   * by one, and a million rows that way take several times as long as the same rows in one value.
   */
  async readSpan(from: number, to: number, topics: readonly Topic[]): Promise<Omit<ReadBatch, 'next'>> {
    const [row] = await this.db.query<{ rows: string | null }>(
      `SELECT json_agg(json_build_array(seq, id, topic, type, v, key, at, data))::text AS rows
         FROM events WHERE seq >= $1 AND seq < $2 AND topic = ANY($3::text[])`,
      [from, to, topics],
    );
    // Sorted here rather than in SQL: a sort of a whole span spills to disk on PGlite.
    const rows = row?.rows ? (JSON.parse(row.rows) as SpanRow[]).sort((a, b) => a[0] - b[0]) : [];
    return decodeRows(rows.map(([seq, id, topic, type, v, key, at, data]) => ({ seq, id, topic, type, v, key, at, data })));
  }

  async end(tx: Db = this.db): Promise<number> {
    const [row] = await tx.query<{ m: number | null }>('SELECT max(seq) AS m FROM events');
    return Number(row?.m ?? 0) + 1;
  }
}

type DecodedRows = { events: LoggedEvent[]; rejected: UndecodableEntry[] };

/** A tail entry as the row the table would return. */
const tailRow = (row: TailRow<DecodedRows>): EventRow => ({ seq: row.seq, id: row.id, topic: row.topic, type: row.type, v: row.v, key: row.key, at: row.at, data: JSON.parse(row.json) as unknown });

/** Decodes stored rows in order; the ones that no schema accepts are set apart for the dead letters. */
function decodeRows(rows: readonly EventRow[]): DecodedRows {
  const events: LoggedEvent[] = [];
  const rejected: UndecodableEntry[] = [];
  for (const row of rows) {
    const raw = { id: row.id, type: row.type, v: row.v, key: row.key, at: toIso(row.at), data: row.data };
    const decoded = decodeEvent(raw);
    if (decoded.ok) events.push({ position: row.seq, topic: row.topic as Topic, event: decoded.event });
    else rejected.push({ position: row.seq, topic: row.topic, raw: JSON.stringify(raw), reason: decoded.reason });
  }
  return { events, rejected };
}

function toIso(at: Date | string): string {
  return at instanceof Date ? at.toISOString() : new Date(at).toISOString();
}
