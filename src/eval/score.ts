import type { MatchArm } from '../domain/event-schemas.js';
import { PageIndex } from '../context/page-index.js';
import { createWatchSession, stepWatchSession } from '../context/watch-session.js';
import { resolvePage } from '../pages/resolve-page.js';
import { loadBenchCases, type BenchCase, type GoldTurn } from './fixtures.js';

/** Knobs of a replay; defaults are the benchmark's (window 4, gate 0.7, cap 3). */
export interface ScoreOptions {
  windowTurns?: number;
  minConfidence?: number;
  maxPages?: number;
  lexicalArms?: boolean;
  /** Gazetteer pass (`retrieval_reflex_gazetteer`); default on, as the product; false = spec-exact. */
  gazetteer?: boolean;
}

export interface TurnDetail {
  turn_id: number;
  role: 'user' | 'assistant';
  volunteered: Array<{ slug: string; source_id: string; arm: MatchArm; confidence: number }>;
  gold: GoldTurn | null;
  /** Gold pages of a should-retrieve turn that were not volunteered. */
  missed: string[];
  /** Volunteered pages outside gold ∪ acceptable on a scored turn (any on a silent turn). */
  wrong: string[];
}

export interface FixtureDetail {
  fixture_id: string;
  active_source: string;
  /** Seed pages that could not be parsed (slug and message). */
  seedErrors: string[];
  turns: TurnDetail[];
}

export interface BenchCounts {
  shouldRetrieveTurns: number;
  knowToAskFailures: number;
  silentTurns: number;
  falseFires: number;
  volunteeredOnRetrieve: number;
  relevantOnRetrieve: number;
  goldTotal: number;
  goldVolunteered: number;
  sourceIsolationViolations: number;
}

/** Micro-averaged metrics over all fixtures (brainbench/README.md). */
export interface BenchReport {
  fixtures: number;
  knowToAskFailure: number;
  falseFire: number;
  precision: number;
  recall: number;
  sourceIsolationViolations: number;
  counts: BenchCounts;
  details: FixtureDetail[];
}

/** One fixture replayed as one `watch` session in its active source, owner caller. */
export function replayCase(c: BenchCase, opts: ScoreOptions = {}): FixtureDetail {
  const { fixture, gold } = c;
  const active = fixture.active_source ?? 'default';
  const index = new PageIndex();
  const seedErrors: string[] = [];
  for (const seed of fixture.seed_pages ?? []) {
    try {
      const page = resolvePage(seed.content, { slugHint: seed.slug });
      index.upsert({ source_id: seed.source_id ?? 'default', slug: seed.slug, ...page });
    } catch (err) {
      seedErrors.push(`${seed.slug}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  let state = createWatchSession(opts.windowTurns ?? 4);
  const turns: TurnDetail[] = [];
  for (const t of fixture.turns) {
    const step = stepWatchSession(state, { role: t.role, text: t.text }, index, {
      scope: [active],
      remote: false,
      minConfidence: opts.minConfidence ?? 0.7,
      maxPages: opts.maxPages ?? 3,
      lexicalArms: opts.lexicalArms ?? true,
      gazetteer: opts.gazetteer ?? true,
    });
    state = step.state;
    const g = gold?.turns[String(t.turn_id)] ?? null;
    const slugs = step.volunteered.map((p) => p.slug);
    const good = new Set([...(g?.gold_slugs ?? []), ...(g?.acceptable_slugs ?? [])]);
    turns.push({
      turn_id: t.turn_id,
      role: t.role,
      volunteered: step.volunteered.map((p) => ({ slug: p.slug, source_id: p.source_id, arm: p.arm, confidence: p.confidence })),
      gold: g,
      missed: g?.should_retrieve ? (g.gold_slugs ?? []).filter((s) => !slugs.includes(s)) : [],
      wrong: g ? slugs.filter((s) => !g.should_retrieve || !good.has(s)) : [],
    });
  }
  return { fixture_id: fixture.fixture_id, active_source: active, seedErrors, turns };
}

const ratio = (n: number, d: number, empty: number): number => (d === 0 ? empty : n / d);

/** Scores replays of fixtures; micro-averaged over every scored turn. */
export function scoreDetails(details: FixtureDetail[]): BenchReport {
  const k: BenchCounts = {
    shouldRetrieveTurns: 0,
    knowToAskFailures: 0,
    silentTurns: 0,
    falseFires: 0,
    volunteeredOnRetrieve: 0,
    relevantOnRetrieve: 0,
    goldTotal: 0,
    goldVolunteered: 0,
    sourceIsolationViolations: 0,
  };
  for (const f of details) {
    for (const t of f.turns) {
      for (const p of t.volunteered) if (p.source_id !== f.active_source) k.sourceIsolationViolations++;
      const g = t.gold;
      if (!g) continue;
      const slugs = t.volunteered.map((p) => p.slug);
      if (!g.should_retrieve) {
        k.silentTurns++;
        if (slugs.length > 0) k.falseFires++;
        continue;
      }
      const goldSlugs = g.gold_slugs ?? [];
      const good = new Set([...goldSlugs, ...(g.acceptable_slugs ?? [])]);
      k.shouldRetrieveTurns++;
      const relevant = slugs.filter((s) => good.has(s)).length;
      if (relevant === 0) k.knowToAskFailures++;
      k.volunteeredOnRetrieve += slugs.length;
      k.relevantOnRetrieve += relevant;
      k.goldTotal += goldSlugs.length;
      k.goldVolunteered += goldSlugs.filter((s) => slugs.includes(s)).length;
    }
  }
  return {
    fixtures: details.length,
    knowToAskFailure: ratio(k.knowToAskFailures, k.shouldRetrieveTurns, 0),
    falseFire: ratio(k.falseFires, k.silentTurns, 0),
    precision: ratio(k.relevantOnRetrieve, k.volunteeredOnRetrieve, 1),
    recall: ratio(k.goldVolunteered, k.goldTotal, 1),
    sourceIsolationViolations: k.sourceIsolationViolations,
    counts: k,
    details,
  };
}

/** Loads `<dir>/fixtures` + `<dir>/gold` (BrainBench format) and scores every case. */
export function scoreFixtures(dir: string, opts: ScoreOptions = {}): BenchReport {
  return scoreDetails(loadBenchCases(dir).map((c) => replayCase(c, opts)));
}
