import { insertRows, type Db } from '../db/db.js';
import type { UndecodableEntry } from './event-log.js';

/**
 * Keeps what could not be processed, with where it came from and why. Every consumer that
 * meets the same bad entry records the same row, so it is kept once.
 */
export async function recordDeadLetters(tx: Db, entries: readonly UndecodableEntry[]): Promise<void> {
  const rows = entries.map((e) => [e.topic, null, null, e.position, e.reason, e.raw]);
  await insertRows(tx, 'dead_letters', DEAD_LETTER_COLUMNS, rows, DEAD_LETTER_CONFLICT);
}

export const DEAD_LETTER_COLUMNS = ['origin', 'partition', '"offset"', 'seq', 'reason', 'raw'] as const;
export const DEAD_LETTER_CONFLICT = `ON CONFLICT (origin, (COALESCE(partition, -1)), (COALESCE("offset", '')), (COALESCE(seq, -1))) DO NOTHING`;
