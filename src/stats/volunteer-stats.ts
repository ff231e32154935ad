import { usageByArm, type Attribution } from '../../projections/volunteer-events-queries.js';
import type { Db } from '../db/db.js';

export type { Attribution };

const APPROXIMATE_NOTE =
  'approximate: "used" = pages.last_retrieved_at > volunteered_at. Unrelated reads of the same page cause false positives; use --attribution session for exact attribution.';
const SESSION_NOTE =
  'exact: "used" = a retrieval of the page in the same session after it was volunteered; events without a session id never count as used.';

export interface ArmStats {
  match_arm: string;
  channel: string;
  volunteered: number;
  used: number;
  precision: number;
}

export interface VolunteerStats {
  days: number;
  attribution: Attribution;
  approximate: boolean;
  note: string;
  total_volunteered: number;
  total_used: number;
  by_arm: ArmStats[];
}

/** The stats window when none is given; a given one is checked where it enters (RANGES.days). */
export const DEFAULT_STATS_DAYS = 30;

export const precisionOf = (used: number, volunteered: number): number =>
  volunteered === 0 ? 0 : Number((used / volunteered).toFixed(3));

/**
 * Per (arm, channel), how many volunteered pages of the caller's sources in the
 * last `days` days were then used, under either attribution.
 */
export async function volunteerStats(db: Db, sources: readonly string[], days: number, attribution: Attribution, now = new Date()): Promise<VolunteerStats> {
  const rows = await usageByArm(db, sources, new Date(now.getTime() - days * 86_400_000), attribution);
  const byArm = rows
    .map((r) => ({ match_arm: r.match_arm, channel: r.channel, volunteered: r.volunteered, used: r.used, precision: precisionOf(r.used, r.volunteered) }))
    .sort((a, b) => (a.match_arm < b.match_arm ? -1 : a.match_arm > b.match_arm ? 1 : a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0));
  const total_volunteered = byArm.reduce((s, r) => s + r.volunteered, 0);
  const total_used = byArm.reduce((s, r) => s + r.used, 0);
  return {
    days,
    attribution,
    approximate: attribution === 'approximate',
    note: attribution === 'approximate' ? APPROXIMATE_NOTE : SESSION_NOTE,
    total_volunteered,
    total_used,
    by_arm: byArm,
  };
}

export function renderVolunteerStats(s: VolunteerStats): string {
  const lines = [
    `volunteered-context precision — last ${s.days} day(s) (${s.note})`,
    `total: ${s.total_volunteered} volunteered, ${s.total_used} used`,
  ];
  if (s.by_arm.length === 0) lines.push('  (no volunteer events in the window)');
  for (const r of s.by_arm) lines.push(`  ${r.match_arm}/${r.channel}: ${r.used}/${r.volunteered} used (precision ${r.precision})`);
  return `${lines.join('\n')}\n`;
}
