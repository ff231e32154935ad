import type { Db } from '../src/db/db.js';

/**
 * The purge watermark a projection has applied, kept in its own single-row table so that a
 * rebuild (which shadows that table too) replays the same purge decisions at the same log
 * positions. Milliseconds since the epoch; null when nothing was ever purged.
 */
export async function readWatermark(tx: Db, table: string): Promise<number | null> {
  const [row] = await tx.query<{ purged_before: Date | string }>(`SELECT purged_before FROM ${table}`);
  return row ? new Date(row.purged_before).getTime() : null;
}

export async function writeWatermark(tx: Db, table: string, purgedBefore: number): Promise<void> {
  await tx.query(
    `INSERT INTO ${table} (singleton, purged_before) VALUES (true, $1)
     ON CONFLICT (singleton) DO UPDATE SET purged_before = GREATEST(${table}.purged_before, EXCLUDED.purged_before)`,
    [new Date(purgedBefore).toISOString()],
  );
}

/** Raises a watermark; never lowers it (a later purge with a longer retention cannot un-purge). */
export const raise = (current: number | null, purgedBefore: string): number =>
  Math.max(current ?? Number.NEGATIVE_INFINITY, Date.parse(purgedBefore));
