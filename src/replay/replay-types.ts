import type { Channel, MatchArm, Role } from '../domain/event-schemas.js';
import type { LearningEvent } from '../learning/learning-fold.js';
import type { Page } from '../pages/page.js';

/** A logged turn as the replay needs it (compact: it crosses to worker threads by the million). */
export interface ReplayTurn {
  session: string;
  turn: number;
  role: Role;
  text: string;
  source: string;
  /** Event time, ms since the epoch. */
  at: number;
  /** The session's own knobs, when its client chose them. */
  windowTurns?: number;
  maxPages?: number;
  /** The channel the turn came in on, when not `watch` (a harness hook). */
  channel?: Channel;
  /** Ungated pointers the turn asked for (a harness prompt). */
  pointers?: number;
  /** Slugs the harness had shown before (never pushed again in the session). */
  shown?: string[];
  /** Decided with a remote caller's rights. */
  remote?: boolean;
  /** Decided on itself and `shown` alone (the cold path), not on the session's earlier turns. */
  fresh?: boolean;
}

/**
 * What a shard folds in log order: its own turns, and (with the learning gate) every outcome the
 * learned state is built from, whatever its session.
 */
export type ReplayStep = ReplayTurn | LearningEvent;

export const isLearningStep = (s: ReplayStep): s is LearningEvent => 'kind' in s;

/** A page event for the replay's page index. */
export type ReplayPageChange = { kind: 'upsert'; page: Page } | { kind: 'delete'; source: string; slug: string };

/** The decision knobs a replay runs with (everything but the swept gate). */
export interface ReplayKnobs {
  gates: number[];
  /** `--max-pages`: overrides every session's cap. */
  maxPages?: number;
  /** Window of sessions that did not choose one (configuration). */
  windowTurns: number;
  lexicalArms: boolean;
  gazetteer: boolean;
  remote: boolean;
  /** Turns before this event time (ms) build session state but are not counted. */
  since: number | null;
  /** Gates (indexes into `gates`) whose volunteered pages are kept, for comparison with the live log. */
  collect?: number[];
  /**
   * Also decide every turn with the learning gate, reading the learned state as the log stood
   * just before the turn (the outcomes of what was volunteered and read until then).
   */
  learned?: boolean;
}

export interface ArmTally {
  volunteered: number;
  usedApproximate: number;
  usedSession: number;
}

/** A volunteered page the replay would have logged (collect mode). */
export interface ReplayVolunteered {
  gate: number;
  channel: Channel;
  session: string;
  turn: number;
  at: number;
  source_id: string;
  slug: string;
  confidence: number;
  arm: MatchArm;
  rationale: string;
  display: string;
  synopsis: string;
  /** Decided by the learning gate. */
  learned?: true;
}

/** What one shard found: per gate, per arm. */
export interface ShardResult {
  tallies: Record<string, ArmTally>[];
  /** The learning gate's tallies, per gate and arm (with `learned` only). */
  learnedTallies?: Record<string, ArmTally>[];
  /** Turns counted (at or after `since`). */
  turns: number;
  /** Sessions with at least one counted turn. */
  sessions: string[];
  collected: ReplayVolunteered[];
}
