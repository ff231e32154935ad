import type { MatchArm } from '../domain/event-schemas.js';
import { countRow, emptyDeltas, foldLearningEvent, learningPageKey, type LearningDeltas, type LearningEvent, type LearningRow } from './learning-fold.js';
import type { ArmOutcomes, LearnedSnapshot, PageOutcomes } from './learning-rule.js';

/**
 * The learning gate's state in memory, folded from the log in log order: what the projection
 * holds, for a replay (which writes nothing) and for tests. `snapshot()` is what a decision at
 * this point of the log reads.
 */
export class LearnedState {
  private readonly rows = new Map<string, LearningRow>();
  private readonly pages = new Map<string, PageOutcomes>();
  private readonly arms = new Map<MatchArm, ArmOutcomes>();
  private readonly sum: ArmOutcomes = { volunteered: 0, used: 0 };
  private readonly read: PageOutcomes = { sessions: 0, used: 0 };
  private watermark: number | null = null;

  apply(e: LearningEvent): void {
    if (e.kind === 'purged') return this.purge(e.before);
    const deltas = emptyDeltas();
    if (foldLearningEvent(this.rows, deltas, e, this.watermark) !== null) this.add(deltas);
  }

  /** The purge's decision: sessions first seen before the watermark are forgotten. */
  private purge(before: number): void {
    if (this.watermark !== null && before <= this.watermark) return;
    this.watermark = before;
    const deltas = emptyDeltas();
    for (const [key, row] of this.rows) {
      if (row.first_seen_at >= before) continue;
      countRow(deltas, row, -1);
      this.rows.delete(key);
    }
    this.add(deltas);
  }

  private add(deltas: LearningDeltas): void {
    for (const [key, d] of deltas.pages) {
      const p = this.pages.get(key) ?? { sessions: 0, used: 0 };
      this.countRead(p, -1);
      p.sessions += d.sessions;
      p.used += d.used;
      this.countRead(p, 1);
      if (p.sessions === 0) this.pages.delete(key);
      else this.pages.set(key, p);
    }
    for (const [arm, d] of deltas.arms) {
      const a = this.arms.get(arm) ?? { volunteered: 0, used: 0 };
      a.volunteered += d.volunteered;
      a.used += d.used;
      this.sum.volunteered += d.volunteered;
      this.sum.used += d.used;
      if (a.volunteered === 0) this.arms.delete(arm);
      else this.arms.set(arm, a);
    }
  }

  private countRead(p: PageOutcomes, sign: 1 | -1): void {
    if (p.used === 0) return;
    this.read.sessions += sign * p.sessions;
    this.read.used += sign * p.used;
  }

  /** The state as it stands (a view: it follows later events). */
  snapshot(): LearnedSnapshot {
    return {
      page: (sourceId, slug) => this.pages.get(learningPageKey(sourceId, slug)),
      arm: (arm) => this.arms.get(arm),
      total: this.sum,
      readPages: this.read,
    };
  }

  /** Every page and arm counter, for comparing with the projection's tables. */
  counters(): { pages: Map<string, PageOutcomes>; arms: Map<MatchArm, ArmOutcomes> } {
    return { pages: new Map([...this.pages].map(([k, v]) => [k, { ...v }])), arms: new Map([...this.arms].map(([k, v]) => [k, { ...v }])) };
  }
}
