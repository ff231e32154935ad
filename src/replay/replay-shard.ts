import { PageIndex } from '../context/page-index.js';
import type { VolunteeredPage } from '../context/volunteer.js';
import { LearnedState } from '../learning/learned-state.js';
import { usedApproximately, usedInSession, outcomePageKey, type OutcomeIndex } from './outcome-index.js';
import { createSweepSession, sweepTurn, type SweepSession } from './threshold-sweep.js';
import { isLearningStep, type ArmTally, type ReplayKnobs, type ReplayPageChange, type ReplayStep, type ReplayTurn, type ShardResult, type ReplayVolunteered } from './replay-types.js';

const zero = (): ArmTally => ({ volunteered: 0, usedApproximate: 0, usedSession: 0 });

/** One way of deciding the replayed turns (the static gate, or the learning gate) and its tallies. */
interface Gate {
  sessions: Map<string, SweepSession>;
  tallies: Record<string, ArmTally>[];
  learned: boolean;
}

/**
 * The replay of a set of sessions: its own page index (fed every page event in log order) and,
 * per session, the sweep state. Sessions are independent given the index (and the learned state,
 * which every shard folds from every outcome), so shards run in parallel; the result does not
 * depend on how sessions were split. Writes nothing anywhere.
 */
export class ReplayShard {
  private readonly index: PageIndex;
  private readonly counted = new Set<string>();
  private readonly static: Gate;
  private readonly learning: Gate | null;
  /** What the learning gate has learned so far, folded in log order (with `learned` only). */
  private readonly state = new LearnedState();
  private readonly collect: Set<number>;
  private readonly collected: ReplayVolunteered[] = [];
  private turns = 0;

  constructor(
    private readonly knobs: ReplayKnobs,
    private readonly outcomes: OutcomeIndex,
  ) {
    this.index = new PageIndex({ gazetteer: knobs.gazetteer });
    const gate = (learned: boolean): Gate => ({ sessions: new Map(), tallies: knobs.gates.map(() => ({})), learned });
    this.static = gate(false);
    this.learning = knobs.learned === true ? gate(true) : null;
    this.collect = new Set(knobs.collect ?? []);
  }

  applyPages(changes: readonly ReplayPageChange[]): void {
    for (const c of changes) {
      if (c.kind === 'upsert') this.index.upsert(c.page);
      else this.index.remove(c.source, c.slug);
    }
  }

  applyTurns(steps: readonly ReplayStep[]): void {
    for (const step of steps) {
      if (isLearningStep(step)) {
        this.state.apply(step);
        continue;
      }
      const counted = this.knobs.since === null || step.at >= this.knobs.since;
      if (counted) {
        this.turns++;
        this.counted.add(step.session);
      }
      // Whether a page was used depends on the page, the session and the time, not on the gate.
      const used = new Map<string, [boolean, boolean]>();
      this.decide(this.static, step, counted, used);
      if (this.learning) this.decide(this.learning, step, counted, used);
    }
  }

  private decide(gate: Gate, t: ReplayTurn, counted: boolean, used: Map<string, [boolean, boolean]>): void {
    const knobs = this.knobs;
    // As the live topology: a session's window is fixed by its first turn's knobs.
    const state = gate.sessions.get(t.session) ?? createSweepSession(t.windowTurns ?? knobs.windowTurns, knobs.gates.length);
    const step = sweepTurn(state, { role: t.role, text: t.text }, this.index, knobs.gates, {
      scope: [t.source],
      remote: knobs.remote || t.remote === true,
      maxPages: knobs.maxPages ?? t.maxPages ?? undefined,
      lexicalArms: knobs.lexicalArms,
      gazetteer: knobs.gazetteer,
      turn: t.turn,
      ...(t.pointers !== undefined ? { pointers: t.pointers } : {}),
      ...(t.shown !== undefined ? { shown: t.shown } : {}),
      ...(t.fresh === true ? { fresh: true } : {}),
      ...(gate.learned ? { learned: this.state.snapshot() } : {}),
    });
    gate.sessions.set(t.session, step.session);
    if (!counted) return;
    step.volunteered.forEach((pages, g) => {
      for (const p of pages) this.tally(gate, g, t, step.turn, p, used);
    });
  }

  private tally(gate: Gate, g: number, t: ReplayTurn, turn: number, p: VolunteeredPage, used: Map<string, [boolean, boolean]>): void {
    const page = outcomePageKey(p.source_id, p.slug);
    let flags = used.get(page);
    if (!flags) used.set(page, (flags = [usedApproximately(this.outcomes, page, t.at), usedInSession(this.outcomes, page, t.session, t.at)]));
    const tally = (gate.tallies[g]![p.arm] ??= zero());
    tally.volunteered++;
    if (flags[0]) tally.usedApproximate++;
    if (flags[1]) tally.usedSession++;
    if (this.collect.has(g)) {
      this.collected.push({
        gate: g, channel: t.channel ?? 'watch', session: t.session, turn, at: t.at, source_id: p.source_id, slug: p.slug, confidence: p.confidence,
        arm: p.arm, rationale: p.rationale, display: p.display, synopsis: p.synopsis, ...(gate.learned ? { learned: true } : {}),
      });
    }
  }

  result(): ShardResult {
    return {
      tallies: this.static.tallies,
      ...(this.learning ? { learnedTallies: this.learning.tallies } : {}),
      turns: this.turns,
      sessions: [...this.counted],
      collected: this.collected,
    };
  }
}
