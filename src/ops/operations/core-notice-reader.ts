import type { Db } from '../../db/db.js';
import type { PendingNotice } from '../../core-memory/core-notices.js';

/** Reads the core pages with unacknowledged remote revisions (core-memory §6). */
export type CoreNoticeReader = (db: Db) => Promise<PendingNotice[]>;

let reader: CoreNoticeReader = async () => [];

/** Installed by the core-memory module, which records remote revisions and acks. */
export function installCoreNoticeReader(fn: CoreNoticeReader): void {
  reader = fn;
}

export const readPendingNotices = (db: Db): Promise<PendingNotice[]> => reader(db);
