import { PageIndex } from '../context/page-index.js';
import { usedApproximately, usedInSession, outcomePageKey, type OutcomeIndex } from './outcome-index.js';
import { createSweepSession, sweepTurn, type SweepSession } from './threshold-sweep.js';
import type { ArmTally, ReplayKnobs, ReplayPageChange, ReplayTurn, ShardResult, ReplayVolunteered } from './replay-types.js';

const zero = (): ArmTally => ({ volunteered: 0, usedApproximate: 0, usedSession: 0 });

/**
 * The replay of a set of sessions: its own page index (fed every page event in log order) and,
 * per session, the sweep state. Sessions are independent given the index, so shards run in
 * parallel; the result does not depend on how sessions were split. Writes nothing anywhere.
 */
export class ReplayShard {
  private readonly index: PageIndex;
  private readonly sessions = new Map<string, SweepSession>();
  private readonly counted = new Set<string>();
  private readonly tallies: Record<string, ArmTally>[];
  private readonly collect: Set<number>;
  private readonly collected: ReplayVolunteered[] = [];
  private turns = 0;

  constructor(
    private readonly knobs: ReplayKnobs,
    private readonly outcomes: OutcomeIndex,
  ) {
    this.index = new PageIndex({ gazetteer: knobs.gazetteer });
    this.tallies = knobs.gates.map(() => ({}));
    this.collect = new Set(knobs.collect ?? []);
  }

  applyPages(changes: readonly ReplayPageChange[]): void {
    for (const c of changes) {
      if (c.kind === 'upsert') this.index.upsert(c.page);
      else this.index.remove(c.source, c.slug);
    }
  }

  applyTurns(turns: readonly ReplayTurn[]): void {
    const knobs = this.knobs;
    const gates = knobs.gates;
    for (const t of turns) {
      // As the live topology: a session's window is fixed by its first turn's knobs.
      const state = this.sessions.get(t.session) ?? createSweepSession(t.windowTurns ?? knobs.windowTurns, gates.length);
      const step = sweepTurn(state, { role: t.role, text: t.text }, this.index, gates, {
        scope: [t.source],
        remote: knobs.remote || t.remote === true,
        maxPages: knobs.maxPages ?? t.maxPages ?? undefined,
        lexicalArms: knobs.lexicalArms,
        gazetteer: knobs.gazetteer,
        turn: t.turn,
        ...(t.pointers !== undefined ? { pointers: t.pointers } : {}),
        ...(t.shown !== undefined ? { shown: t.shown } : {}),
        ...(t.fresh === true ? { fresh: true } : {}),
      });
      this.sessions.set(t.session, step.session);
      if (knobs.since !== null && t.at < knobs.since) continue;
      this.turns++;
      this.counted.add(t.session);
      // Whether a page was used depends on the page, the session and the time, not on the gate.
      const used = new Map<string, [boolean, boolean]>();
      step.volunteered.forEach((pages, g) => {
        for (const p of pages) {
          const page = outcomePageKey(p.source_id, p.slug);
          let flags = used.get(page);
          if (!flags) used.set(page, (flags = [usedApproximately(this.outcomes, page, t.at), usedInSession(this.outcomes, page, t.session, t.at)]));
          const tally = (this.tallies[g]![p.arm] ??= zero());
          tally.volunteered++;
          if (flags[0]) tally.usedApproximate++;
          if (flags[1]) tally.usedSession++;
          if (this.collect.has(g)) {
            this.collected.push({ gate: g, channel: t.channel ?? 'watch', session: t.session, turn: step.turn, at: t.at, source_id: p.source_id, slug: p.slug, confidence: p.confidence, arm: p.arm, rationale: p.rationale, display: p.display, synopsis: p.synopsis });
          }
        }
      });
    }
  }

  result(): ShardResult {
    return { tallies: this.tallies, turns: this.turns, sessions: [...this.counted], collected: this.collected };
  }
}
