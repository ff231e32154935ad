import type { Db } from '../../db/db.js';
import { readPendingCoreNotices } from '../../core-memory/core-notice-store.js';
import type { PendingNotice } from '../../core-memory/core-notices.js';

/** Reads the core pages with unacknowledged remote revisions (core-memory §6). */
export type CoreNoticeReader = (db: Db) => Promise<PendingNotice[]>;

let reader: CoreNoticeReader = readPendingCoreNotices;

/** Replaces the reader (an alternative notice store registers itself here). */
export function installCoreNoticeReader(fn: CoreNoticeReader): void {
  reader = fn;
}

export const readPendingNotices = (db: Db): Promise<PendingNotice[]> => reader(db);
