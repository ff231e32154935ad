import type { Db } from '../db/db.js';
import type { Topic } from '../domain/events.js';
import { EmbeddedEventLog } from '../event-log/embedded-log.js';
import type { ReplaySource, SourceBatch } from './turn-source.js';

/** The embedded log as a replay source: the log as it stood at open, read in large spans of positions. */
export class EmbeddedReplaySource implements ReplaySource {
  private constructor(
    private readonly log: EmbeddedEventLog,
    /** One past the last position to read (fixed at open). */
    readonly end: number,
    /** Positions per read. */
    private readonly span: number,
  ) {}

  static async open(db: Db, options: { span?: number } = {}): Promise<EmbeddedReplaySource> {
    const log = new EmbeddedEventLog(db);
    return new EmbeddedReplaySource(log, await log.end(), options.span ?? 50_000);
  }

  async *read(topics: readonly Topic[]): AsyncIterable<SourceBatch> {
    const total = this.end - 1;
    // Spans are ranges of positions, not LIMITs: each reads only its own part of the index.
    for (let from = 1; from < this.end; from += this.span) {
      const to = Math.min(from + this.span, this.end);
      yield { ...(await this.log.readSpan(from, to, topics)), done: to - 1, total };
    }
  }
}
