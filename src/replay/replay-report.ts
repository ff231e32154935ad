import { MatchArm } from '../domain/event-schemas.js';
import { precisionOf } from '../stats/volunteer-stats.js';
import type { ArmTally, ShardResult } from './replay-types.js';

export interface ArmRow {
  match_arm: string;
  volunteered: number;
  used_approximate: number;
  used_session: number;
  precision_approximate: number;
  precision_session: number;
}

export interface ThresholdRow extends Omit<ArmRow, 'match_arm'> {
  min_confidence: number;
  /** Pages retrieved in their session after the replay would have volunteered them there. */
  recalled: number;
  /** recalled / retrieved_in_session (3 decimals; 0 when nothing was retrieved). */
  recall: number;
  by_arm: ArmRow[];
}

export interface ReplayReport {
  /** Turns counted (at or after `since`) and the sessions they belong to. */
  turns: number;
  sessions: number;
  since: string | null;
  max_pages: number | null;
  /** The arms reported (all when none were named). */
  arms: string[];
  /** Pages retrieved in a replayed session (the recall denominator, the same at every gate). */
  retrieved_in_session: number;
  /** Log entries that could not be decoded (unknown type or version): skipped, per reason. */
  skipped_events: number;
  skipped_reasons: Record<string, number>;
  thresholds: ThresholdRow[];
  /**
   * With `--learned`: the learning gate on the same turns, one row per gate, scored the same way
   * (the recall denominator is shared).
   */
  learned?: ThresholdRow[];
}

export interface ReportInput {
  gates: readonly number[];
  arms: readonly string[] | null;
  shards: readonly ShardResult[];
  retrievedInSession: number;
  since: number | null;
  maxPages: number | null;
  skipped: Record<string, number>;
}

const ARM_ORDER: readonly string[] = MatchArm.options;

function armRow(arm: string, t: ArmTally): ArmRow {
  return {
    match_arm: arm,
    volunteered: t.volunteered,
    used_approximate: t.usedApproximate,
    used_session: t.usedSession,
    precision_approximate: precisionOf(t.usedApproximate, t.volunteered),
    precision_session: precisionOf(t.usedSession, t.volunteered),
  };
}

type Tallies = readonly Record<string, ArmTally>[] | undefined;

/** Per gate: the shards' tallies summed per arm; notes every arm that fired. */
function mergeTallies(gates: readonly number[], shards: readonly Tallies[], fired: Set<string>): Map<string, ArmTally>[] {
  return gates.map((_, g) => {
    const byArm = new Map<string, ArmTally>();
    for (const tallies of shards) {
      for (const [arm, t] of Object.entries(tallies?.[g] ?? {})) {
        fired.add(arm);
        const acc = byArm.get(arm) ?? { volunteered: 0, usedApproximate: 0, usedSession: 0 };
        acc.volunteered += t.volunteered;
        acc.usedApproximate += t.usedApproximate;
        acc.usedSession += t.usedSession;
        byArm.set(arm, acc);
      }
    }
    return byArm;
  });
}

function thresholdRows(gates: readonly number[], arms: readonly string[], merged: Map<string, ArmTally>[], retrievedInSession: number): ThresholdRow[] {
  return gates.map((gate, g): ThresholdRow => {
    const rows = arms.map((a) => armRow(a, merged[g]!.get(a) ?? { volunteered: 0, usedApproximate: 0, usedSession: 0 }));
    const total = rows.reduce<ArmTally>(
      (acc, r) => ({ volunteered: acc.volunteered + r.volunteered, usedApproximate: acc.usedApproximate + r.used_approximate, usedSession: acc.usedSession + r.used_session }),
      { volunteered: 0, usedApproximate: 0, usedSession: 0 },
    );
    const { match_arm: _all, ...totals } = armRow('all', total);
    return { min_confidence: gate, ...totals, recalled: total.usedSession, recall: precisionOf(total.usedSession, retrievedInSession), by_arm: rows };
  });
}

/** Sums the shards per gate and arm; the arms listed are those asked for, or every arm that fired at any gate (either gate). */
export function buildReplayReport(input: ReportInput): ReplayReport {
  const fired = new Set<string>();
  const merged = mergeTallies(input.gates, input.shards.map((s) => s.tallies), fired);
  const learning = input.shards.some((s) => s.learnedTallies) ? mergeTallies(input.gates, input.shards.map((s) => s.learnedTallies), fired) : null;
  const arms = ARM_ORDER.filter((a) => (input.arms ? input.arms.includes(a) : fired.has(a)));
  return {
    turns: input.shards.reduce((s, r) => s + r.turns, 0),
    sessions: input.shards.reduce((s, r) => s + r.sessions.length, 0),
    since: input.since === null ? null : new Date(input.since).toISOString(),
    max_pages: input.maxPages,
    arms: [...arms],
    retrieved_in_session: input.retrievedInSession,
    skipped_events: Object.values(input.skipped).reduce((s, n) => s + n, 0),
    skipped_reasons: input.skipped,
    thresholds: thresholdRows(input.gates, arms, merged, input.retrievedInSession),
    ...(learning ? { learned: thresholdRows(input.gates, arms, learning, input.retrievedInSession) } : {}),
  };
}
