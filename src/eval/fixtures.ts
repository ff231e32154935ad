import { readdirSync, readFileSync } from 'node:fs';
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
  gold: BenchGold | null;
}

const FIXTURE_FILE = /\.fixture\.json$/u;

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
    const fixture = JSON.parse(readFileSync(join(fixtureDir, name), 'utf8')) as BenchFixture;
    if (!fixture.suites?.some((s) => s === 'know-to-ask' || s === 'push')) continue;
    let gold: BenchGold | null = null;
    try {
      gold = JSON.parse(readFileSync(join(goldDir, `${fixture.fixture_id}.gold.json`), 'utf8')) as BenchGold;
    } catch {
      gold = null;
    }
    cases.push({ fixture, gold });
  }
  return cases;
}
