import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared/<name>` next to the repository root (test/unit/eval → three levels up). */
export function sharedBenchDir(name: string): { dir: string; exists: boolean } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
  const dir = resolve(root, '..', 'shared', name);
  const exists = existsSync(resolve(dir, 'fixtures')) && existsSync(resolve(dir, 'gold'));
  if (!exists) console.warn(`[eval] benchmark folder missing: ${dir} — its floor tests are skipped`);
  return { dir, exists };
}

/**
 * What the folder holds, read here independently of the loader under test: the ids of the
 * fixtures of the know-to-ask or push suite, and their seed page count.
 */
export function scoredFixtures(dir: string): { ids: string[]; seedPages: number } {
  const ids: string[] = [];
  let seedPages = 0;
  for (const name of readdirSync(resolve(dir, 'fixtures')).filter((n) => n.endsWith('.fixture.json')).sort()) {
    const f = JSON.parse(readFileSync(resolve(dir, 'fixtures', name), 'utf8')) as { fixture_id: string; suites: string[]; seed_pages?: unknown[] };
    if (!f.suites.includes('know-to-ask') && !f.suites.includes('push')) continue;
    ids.push(f.fixture_id);
    seedPages += f.seed_pages?.length ?? 0;
  }
  return { ids, seedPages };
}
