import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A BrainBench-format fixture (schema_version 1): what the system may see. */
export interface BenchFixture {
  schema_version: 1;
  fixture_id: string;
  suites: string[];
  category?: string;
  holdout?: boolean;
  sources?: string[];
  active_source?: string;
  seed_pages?: Array<{ slug: string; content: string; source_id?: string }>;
  turns: Array<{ turn_id: number; role: 'user' | 'assistant'; text: string; ts?: string }>;
}

export interface GoldTurn {
  should_retrieve: boolean;
  gold_slugs?: string[];
  acceptable_slugs?: string[];
}

/** Sealed gold of one fixture, keyed by String(turn_id); turns without an entry are not scored. */
export interface BenchGold {
  fixture_id: string;
  turns: Record<string, GoldTurn>;
}

export interface BenchCase {
  fixture: BenchFixture;
  gold: BenchGold;
}

const FIXTURE_FILE = /\.fixture\.json$/u;

/** The suites the push benchmarks score; fixtures of other suites are not theirs. */
const SCORED_SUITES: readonly string[] = ['know-to-ask', 'push'];

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${what} ${path} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The sealed gold of a fixture. A fixture without gold would be replayed and silently left out
 * of every metric, so a missing or mismatched gold file is an error, as is gold for a turn the
 * fixture does not have (it could never be scored).
 */
function goldOf(goldDir: string, fixture: BenchFixture): BenchGold {
  const path = join(goldDir, `${fixture.fixture_id}.gold.json`);
  if (!existsSync(path)) throw new Error(`fixture ${fixture.fixture_id} has no gold file: expected ${path}`);
  const gold = readJson(path, 'gold file') as BenchGold;
  if (gold?.fixture_id !== fixture.fixture_id) {
    throw new Error(`gold file ${path} is for fixture ${String(gold?.fixture_id)}, not ${fixture.fixture_id}`);
  }
  if (typeof gold.turns !== 'object' || gold.turns === null) throw new Error(`gold file ${path} has no turns object`);
  const turnIds = new Set(fixture.turns.map((t) => String(t.turn_id)));
  const unknown = Object.keys(gold.turns).filter((id) => !turnIds.has(id));
  if (unknown.length > 0) throw new Error(`gold file ${path} scores turns the fixture does not have: ${unknown.join(', ')}`);
  return gold;
}

/**
 * Loads `<dir>/fixtures/<id>.fixture.json` with `<dir>/gold/<id>.gold.json`, ordered by file
 * name. Fixtures of neither the `know-to-ask` nor the `push` suite are skipped; `holdout` is not
 * a filter here (the folder holds exactly what is scored; LoCoMo marks every session holdout).
 */
export function loadBenchCases(dir: string): BenchCase[] {
  const fixtureDir = join(dir, 'fixtures');
  const goldDir = join(dir, 'gold');
  const cases: BenchCase[] = [];
  for (const name of readdirSync(fixtureDir).filter((n) => FIXTURE_FILE.test(n)).sort()) {
    const path = join(fixtureDir, name);
    const fixture = readJson(path, 'fixture') as BenchFixture;
    if (typeof fixture?.fixture_id !== 'string' || !Array.isArray(fixture.turns)) throw new Error(`fixture ${path} has no fixture_id or turns`);
    if (!fixture.suites?.some((s) => SCORED_SUITES.includes(s))) continue;
    cases.push({ fixture, gold: goldOf(goldDir, fixture) });
  }
  return cases;
}
