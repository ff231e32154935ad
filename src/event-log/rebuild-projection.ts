import type { Db } from '../db/db.js';
import { catchUp, type Consumer } from './consumer.js';
import type { EmbeddedEventLog } from './embedded-log.js';
import { quoteIdent, withSearchPath } from './search-path-db.js';
import { diffTable, swapTableContent, type OwnedTable, type TableDiff } from './table-diff-swap.js';

/** What a rebuild needs to know about a projection beyond its consumer. */
export interface RebuildTarget {
  /** The name `brainstream rebuild` takes. */
  name: string;
  consumer: Consumer;
  /** Tables the projection owns: rebuilt in shadow and swapped in. */
  tables: readonly OwnedTable[];
  /** Tables the projection also writes but does not own: shadowed empty so the rebuild never touches the live ones. */
  scratch?: readonly string[];
  /** Deletes what the rebuilt tables' purge watermark makes obsolete (as the purge job does live). */
  purge?: (shadow: Db) => Promise<void>;
  /** In the swap transaction, on the shadow tables, after the last event (e.g. columns derived from other projections). */
  finalize?: (shadow: Db) => Promise<void>;
  /** In the swap transaction, on the live tables, after the swap; returns the rows it changed. */
  afterSwap?: (live: Db) => Promise<number>;
}

export interface RebuildOptions {
  /** Build and compare only: the live tables are left as they are. */
  check?: boolean;
  batchSize?: number;
  onProgress?: (position: number, end: number) => void;
}

export interface RebuildReport {
  projection: string;
  /** Log position the rebuilt tables reflect (one past the last event). */
  position: number;
  /** Rows per rebuilt table. */
  rows: Record<string, number>;
  /** Per table: rows that differed between the live and the rebuilt table. */
  diffs: TableDiff[];
  /** Rows the swap (or, with check, would have) changed; 0 = the live tables were byte-identical. */
  changed: number;
  swapped: boolean;
}

const rebuildSchema = (target: RebuildTarget): string => `bs_rebuild_${target.name.replace(/[^a-z0-9]/g, '_')}`;

/**
 * Rebuild = a new consumer from sequence 0 into shadow tables, stopped when caught up, then a
 * swap. The shadow tables live in their own schema with the same names; the unmodified
 * projection code writes there through a search_path. Live reads and the live projection keep
 * working meanwhile. The swap transaction locks the live projection's checkpoint, applies the
 * last events to the shadow, and makes the live tables equal to the shadow ones, moving the
 * live checkpoint to the shadow's position.
 */
export async function rebuildProjection(db: Db, log: EmbeddedEventLog, target: RebuildTarget, options: RebuildOptions = {}): Promise<RebuildReport> {
  // Larger batches than live catch-up: a rebuild has the whole log ahead of it.
  const batchSize = options.batchSize ?? 10_000;
  const schema = rebuildSchema(target);
  const q = quoteIdent(schema);
  const shadowConsumer: Consumer = { name: `rebuild.${target.consumer.name}`, topics: target.consumer.topics, apply: (tx, events) => target.consumer.apply(tx, events) };
  const [base] = await db.query<{ p: string }>(`SELECT current_setting('search_path') AS p`);
  const shadow = withSearchPath(db, `${q}, ${base!.p}`);
  await db.transaction(async (tx) => {
    await tx.exec(`DROP SCHEMA IF EXISTS ${q} CASCADE; CREATE SCHEMA ${q};`);
    for (const t of [...target.tables.map((o) => o.name), ...(target.scratch ?? [])]) {
      await tx.exec(`CREATE TABLE ${q}.${t} (LIKE ${t} INCLUDING ALL)`);
    }
    await tx.query('DELETE FROM checkpoints WHERE consumer = $1', [shadowConsumer.name]);
  });
  try {
    const end = await log.end();
    await catchUp(shadow, log, shadowConsumer, { until: end, batchSize, onProgress: (p) => options.onProgress?.(p, end) });
    await target.purge?.(shadow);
    return await db.transaction(async (tx) => {
      await tx.query('INSERT INTO checkpoints(consumer, position) VALUES ($1, 1) ON CONFLICT (consumer) DO NOTHING', [target.consumer.name]);
      await tx.query('SELECT position FROM checkpoints WHERE consumer = $1 FOR UPDATE', [target.consumer.name]);
      const inTx = withSearchPath(tx, `${q}, ${base!.p}`);
      await catchUp(inTx, log, shadowConsumer, { batchSize });
      await target.purge?.(inTx);
      await target.finalize?.(inTx);
      const [cp] = await tx.query<{ position: number }>('SELECT position FROM checkpoints WHERE consumer = $1', [shadowConsumer.name]);
      const position = Number(cp!.position);
      const rows: Record<string, number> = {};
      for (const t of target.tables) {
        rows[t.name] = Number((await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${q}.${t.name}`))[0]!.n);
      }
      const diffs: TableDiff[] = [];
      for (const t of target.tables) diffs.push(options.check ? await diffTable(tx, t, schema) : await swapTableContent(tx, t, schema));
      let changed = diffs.reduce((s, d) => s + d.removed + d.added, 0);
      if (!options.check) {
        changed += (await target.afterSwap?.(tx)) ?? 0;
        await tx.query('UPDATE checkpoints SET position = $2, updated_at = now() WHERE consumer = $1', [target.consumer.name, position]);
      }
      options.onProgress?.(position, position);
      return { projection: target.name, position, rows, diffs, changed, swapped: !options.check };
    });
  } finally {
    await db.transaction(async (tx) => {
      await tx.exec(`DROP SCHEMA IF EXISTS ${q} CASCADE`);
      await tx.query('DELETE FROM checkpoints WHERE consumer = $1', [shadowConsumer.name]);
    });
  }
}
