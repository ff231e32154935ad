import { countByChannel } from '../../projections/volunteer-events-queries.js';
import type { Db } from '../db/db.js';
import { Channel } from '../domain/event-schemas.js';

export const ACTIVITY_WINDOW_DAYS = 7;

export interface ChannelActivity {
  count: number;
  last_fired: string | null;
}

/** Volunteer events of the last 7 days per channel (every channel of the closed set listed). */
export async function channelActivity(db: Db, sources: readonly string[] | null, now: Date): Promise<Record<string, ChannelActivity>> {
  const rows = await countByChannel(db, sources, new Date(now.getTime() - ACTIVITY_WINDOW_DAYS * 86_400_000));
  const out: Record<string, ChannelActivity> = {};
  for (const ch of Channel.options) out[ch] = { count: 0, last_fired: null };
  for (const r of rows) out[r.channel] = { count: Number(r.count), last_fired: r.last === null ? null : new Date(r.last).toISOString() };
  return out;
}

const MISSING_TABLE = /does not exist|undefined table|no such table|42P01/i;

/** True for the errors of a brain that predates the feedback-log migration. */
export const isMissingTable = (err: unknown): boolean => {
  const e = err as { message?: unknown; code?: unknown } | null;
  return MISSING_TABLE.test(String(e?.message ?? '')) || e?.code === '42P01';
};
