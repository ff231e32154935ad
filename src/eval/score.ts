import type { MatchArm } from '../domain/event-schemas.js';
import { PageIndex } from '../context/page-index.js';
import { resolvePage } from '../pages/resolve-page.js';
import { loadBenchCases, type BenchCase, type BenchFixture, type GoldTurn } from './fixtures.js';
import { replayThroughWatch } from './watch-replay.js';

/** Knobs of a replay; defaults are the benchmark's (window 4, gate 0.7, cap 3). */
export interface ScoreOptions {
  windowTurns?: number;
  minConfidence?: number;
  maxPages?: number;
  lexicalArms?: boolean;
  /** Gazetteer pass (`retrieval.reflex.gazetteer`); default on, as the product; false = spec-exact. */
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
  /** Seed pages of the fixture, and how many of them the page index holds after seeding. */
  seedPages: number;
  indexedPages: number;
  /** Seed pages that could not be parsed or indexed (slug and message). */
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

/**
 * The fixture's pages in a fresh in-memory page index (built with the gazetteer, as the product's
 * is; the option only switches its use per decision). A page that does not parse, has no usable
 * title or repeats a slug of its source is a seed error: the fixture is not what it claims.
 */
function seedIndex(fixture: BenchFixture): { index: PageIndex; seedErrors: string[]; seedPages: number } {
  const index = new PageIndex();
  const seedErrors: string[] = [];
  const seen = new Set<string>();
  const seeds = fixture.seed_pages ?? [];
  for (const seed of seeds) {
    const sourceId = seed.source_id ?? 'default';
    const id = `${sourceId}/${seed.slug}`;
    if (seen.has(id)) {
      seedErrors.push(`${seed.slug}: a second page with this slug in source ${sourceId}`);
      continue;
    }
    seen.add(id);
    try {
      const page = resolvePage(seed.content, { slugHint: seed.slug });
      index.upsert({ ...page, source_id: sourceId, slug: seed.slug });
      if (!index.get(sourceId, seed.slug)) seedErrors.push(`${seed.slug}: not indexed (no usable title)`);
    } catch (err) {
      seedErrors.push(`${seed.slug}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { index, seedErrors, seedPages: seeds.length };
}

/**
 * One fixture replayed as one `watch` session in its active source, owner caller: each turn is a
 * stdin line through watch's parsing and the volunteer topology (watch-replay.ts).
 */
async function replayCase(c: BenchCase, opts: ScoreOptions = {}): Promise<FixtureDetail> {
  const { fixture, gold } = c;
  const active = fixture.active_source ?? 'default';
  const { index, seedErrors, seedPages } = seedIndex(fixture);
  const replayed = await replayThroughWatch(fixture, index, active, {
    windowTurns: opts.windowTurns ?? 4,
    minConfidence: opts.minConfidence ?? 0.7,
    maxPages: opts.maxPages ?? 3,
    lexicalArms: opts.lexicalArms ?? true,
    gazetteer: opts.gazetteer ?? true,
    remote: false,
  });
  const turns: TurnDetail[] = replayed.map(({ turn: t, decision }) => {
    const volunteered = decision?.volunteered ?? [];
    const g = gold.turns[String(t.turn_id)] ?? null;
    const slugs = volunteered.map((p) => p.slug);
    const good = new Set([...(g?.gold_slugs ?? []), ...(g?.acceptable_slugs ?? [])]);
    return {
      turn_id: t.turn_id,
      role: t.role,
      volunteered: volunteered.map((p) => ({ slug: p.slug, source_id: p.source_id, arm: p.arm, confidence: p.confidence })),
      gold: g,
      missed: g?.should_retrieve ? (g.gold_slugs ?? []).filter((s) => !slugs.includes(s)) : [],
      wrong: g ? slugs.filter((s) => !g.should_retrieve || !good.has(s)) : [],
    };
  });
  return { fixture_id: fixture.fixture_id, active_source: active, seedPages, indexedPages: index.size, seedErrors, turns };
}

const ratio = (n: number, d: number, empty: number): number => (d === 0 ? empty : n / d);

/** Scores replays of fixtures; micro-averaged over every scored turn. */
function scoreDetails(details: FixtureDetail[]): BenchReport {
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
export async function scoreFixtures(dir: string, opts: ScoreOptions = {}): Promise<BenchReport> {
  const details: FixtureDetail[] = [];
  for (const c of loadBenchCases(dir)) details.push(await replayCase(c, opts));
  return scoreDetails(details);
}
