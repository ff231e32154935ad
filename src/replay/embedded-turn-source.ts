import type { Db } from '../db/db.js';
import { decodeEvent, type Topic } from '../domain/events.js';
import type { LoggedEvent, UndecodableEntry } from '../event-log/event-log.js';
import type { ReplaySource, SourceBatch } from './turn-source.js';

type Row = [seq: number, id: string, topic: string, type: string, v: number, key: string, at: string, data: unknown];

/**
 * The embedded log as a replay source. It reads large chunks aggregated to one JSON text each:
 * PGlite hands rows over one by one, and a million rows that way take several times as long as
 * the same rows in one value.
 */
export class EmbeddedReplaySource implements ReplaySource {
  private constructor(
    private readonly db: Db,
    /** One past the last position to read (fixed at open). */
    readonly end: number,
    /** Positions per read. */
    private readonly span: number,
  ) {}

  static async open(db: Db, options: { span?: number } = {}): Promise<EmbeddedReplaySource> {
    const [row] = await db.query<{ m: number | null }>('SELECT max(seq) AS m FROM events');
    return new EmbeddedReplaySource(db, Number(row?.m ?? 0) + 1, options.span ?? 50_000);
  }

  async *read(topics: readonly Topic[]): AsyncIterable<SourceBatch> {
    const total = this.end - 1;
    // Chunks are ranges of positions, not LIMITs: each reads only its own part of the index.
    for (let from = 1; from < this.end; from += this.span) {
      const to = Math.min(from + this.span, this.end);
      const [row] = await this.db.query<{ rows: string | null }>(
        `SELECT json_agg(json_build_array(seq, id, topic, type, v, key, at, data))::text AS rows
           FROM events WHERE seq >= $1 AND seq < $2 AND topic = ANY($3::text[])`,
        [from, to, topics],
      );
      // Sorted here rather than in SQL: a sort of a whole chunk spills to disk on PGlite.
      const rows = row?.rows ? (JSON.parse(row.rows) as Row[]).sort((a, b) => a[0] - b[0]) : [];
      const events: LoggedEvent[] = [];
      const rejected: UndecodableEntry[] = [];
      for (const [seq, id, topic, type, v, key, at, data] of rows) {
        const raw = { id, type, v, key, at: new Date(at).toISOString(), data };
        const decoded = decodeEvent(raw);
        if (decoded.ok) events.push({ position: seq, topic: topic as Topic, event: decoded.event });
        else rejected.push({ position: seq, topic, raw: JSON.stringify(raw), reason: decoded.reason });
      }
      yield { events, rejected, done: to - 1, total };
    }
  }
}
