/** One stored entry as this process appended it: what a read of its row gives back. */
export interface TailRow<Decoded = unknown> {
  seq: number;
  id: string;
  topic: string;
  type: string;
  v: number;
  key: string;
  at: string;
  /** The data as JSON text, as the table returns it. */
  json: string;
  /** What the log decoded from it at the first read (kept: the entry never changes). */
  decoded?: Decoded;
}

/** An envelope as `append` receives it (not validated: the log stores what it is given). */
interface Appended {
  id: unknown;
  topic: string;
  type: unknown;
  v: unknown;
  key: unknown;
  at: unknown;
  data: unknown;
}

const CANONICAL_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ASCII = /^[\x00-\x7f]*$/;

/** PostgreSQL's order of a jsonb object's keys: shorter first (in UTF-8 bytes), then bytewise. */
function jsonbKeyOrder(a: string, b: string): number {
  if (ASCII.test(a) && ASCII.test(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length - y.length || Buffer.compare(x, y);
}

/** A plain JSON value with every object's keys in the order jsonb stores and returns them. */
function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort(jsonbKeyOrder)) out[k] = inJsonbOrder((value as Record<string, unknown>)[k]);
  return out;
}

/** The data as the jsonb column gives it back: JSON's values only, keys in jsonb's order. */
function asStored(data: unknown): string | undefined {
  const json = JSON.stringify(data);
  return json === undefined ? undefined : JSON.stringify(inJsonbOrder(JSON.parse(json)));
}

/**
 * The entries this process appended lately, by position. The owner of a brain reads back almost
 * everything it appends at once — the turn engine every batch of turns, three projections every
 * volunteered event — and fetching and decoding those rows again costs more than writing them.
 * A read asks the table which positions its range holds (a cheap index read) and takes the
 * entries it finds here from here.
 *
 * Only positions the table returns are ever looked up, so entries of an append whose transaction
 * rolled back are never used (a position is never handed out twice). An entry is kept as the
 * table gives it back (its data's keys in jsonb's order), and only when that form is certain: an
 * event time in the form the log reads back, string and integer fields; the rest are fetched. Bounded by entries and by the bytes of
 * their data: the oldest go first.
 */
export class AppendedTail<Decoded = unknown> {
  private readonly rows = new Map<number, TailRow<Decoded>>();
  private chars = 0;

  constructor(
    private readonly maxEntries = 20_000,
    private readonly maxChars = 16_000_000,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** Records the entries an append stored, given the positions the table assigned to their ids. */
  remember(events: readonly Appended[], positions: ReadonlyMap<string, number>): void {
    for (const e of events) {
      if (typeof e.id !== 'string') continue;
      const seq = positions.get(e.id);
      if (seq === undefined || this.rows.has(seq)) continue;
      if (typeof e.type !== 'string' || typeof e.key !== 'string' || typeof e.v !== 'number' || !Number.isInteger(e.v)) continue;
      if (typeof e.at !== 'string' || !CANONICAL_AT.test(e.at) || Number.isNaN(Date.parse(e.at))) continue;
      const json = asStored(e.data);
      if (json === undefined) continue;
      this.rows.set(seq, { seq, id: e.id, topic: e.topic, type: e.type, v: e.v, key: e.key, at: e.at, json });
      this.chars += json.length;
    }
    this.trim();
  }

  get(seq: number): TailRow<Decoded> | undefined {
    return this.rows.get(seq);
  }

  private trim(): void {
    for (const [seq, row] of this.rows) {
      if (this.rows.size <= this.maxEntries && this.chars <= this.maxChars) return;
      this.rows.delete(seq);
      this.chars -= row.json.length;
    }
  }
}
