import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lookUpSnapshot, writeSnapshot } from '../../../src/cold/page-snapshot.js';
import { windowWords } from '../../../src/cold/snapshot-keys.js';
import { PageIndex } from '../../../src/context/page-index.js';
import type { Turn } from '../../../src/context/turn.js';
import { resolvePointers, volunteer } from '../../../src/context/volunteer.js';
import { loadBenchCases } from '../../../src/eval/fixtures.js';
import { resolvePage } from '../../../src/pages/resolve-page.js';
import { sharedBenchDir } from '../eval/bench-dir.js';
import { indexOf, user } from '../context/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'bs-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** The index a cold call would rebuild from a snapshot of `full` for this window. */
function coldIndexFor(full: PageIndex, turns: readonly Turn[], gazetteer = true): PageIndex {
  const path = join(dir, `snap-${files++}.bin`);
  writeSnapshot(path, full, 7, new Date(0));
  return lookUpSnapshot(path, windowWords(turns.map((t) => t.text)), { gazetteer }).index;
}

type Scope = { scope: string[]; remote: boolean };
const OWNER: Scope = { scope: ['default'], remote: false };

/** The decision on the cold index equals the decision on the whole index. */
function expectSameDecisions(full: PageIndex, turns: readonly Turn[], who: Scope = OWNER): void {
  for (const gazetteer of [true, false]) {
    const cold = coldIndexFor(full, turns);
    const opts = { ...who, gazetteer, lexicalArms: true, minConfidence: 0, maxPages: 5 };
    expect(volunteer(turns, cold, opts)).toEqual(volunteer(turns, full, opts));
    expect(resolvePointers(turns, cold, { ...opts, maxPointers: 5 })).toEqual(resolvePointers(turns, full, { ...opts, maxPointers: 5 }));
  }
}

const tricky = indexOf({
  'games/cyberpunk': { title: 'Cyberpunk' },
  'games/cyberpunk-2077': { title: 'Cyberpunk 2077' },
  'people/jose-alvarez': { title: 'José Álvarez', type: 'person' },
  'companies/obrien-consulting': { title: "O'Brien Consulting" },
  'companies/strasse-labs': { title: 'Straße Labs', aliases: ['Strasse'] },
  'people/yamada-taro': { title: '山田太郎', type: 'person' },
  'orgs/tokyo-u': { title: '東京大学' },
  'games/csgo': { title: 'Counter-Strike', aliases: ['CS:GO'] },
  'people/jk-rowling': { title: 'J.K. Rowling', type: 'person' },
  'people/alice-analogue': { title: 'Alice Analogue', type: 'person' },
  'people/alice-analogue-2': { title: 'Alice Analogue 2', type: 'person' },
  'companies/bank-of-america': { title: 'Bank of America' },
  'places/america': { title: 'America' },
  'bands/the-the': { title: 'The The' },
  'notes/vault': { title: 'Vault Plans', visibility: 'private' },
  'people/bob-example': { title: 'Bob Example', type: 'person', source: 'work' },
  'people/carol-example': { title: 'Carol Example', type: 'person' },
  'concepts/event-sourcing': { title: 'Event Sourcing', aliases: ['ES', 'event store'] },
});

describe('page-index snapshot: a cold call decides as the whole index does', () => {
  it.each([
    'I finished Cyberpunk 2077 last night',
    'Cyberpunk as a genre is older than Cyberpunk 2077',
    'Talked to José Álvarez and jose alvarez about the deal',
    "O'Brien Consulting sent the Straße Labs invoice; Strasse is late",
    '山田太郎は東京大学で働いています',
    'We played CS:GO with J.K. Rowling',
    'Alice Analogue 2 and Alice Analogue met at Bank of America in America',
    'The The played; Example said hi, and people/carol-example too',
    'Vault Plans are ready; Bob Example is in work',
    'event sourcing with an event store (ES)',
    'a walking buddy forCyberpunk and the iPhone of Straße',
  ])('%s', (text) => {
    expectSameDecisions(tricky, [user('earlier: nothing much'), user(text)]);
    expectSameDecisions(tricky, [user(text)], { scope: ['default', 'work'], remote: true });
  });

  it('reads only the buckets of the window: pages named nowhere in it are not loaded', () => {
    const cold = coldIndexFor(tricky, [user('I finished Cyberpunk 2077 last night')]);
    expect(cold.get('default', 'games/cyberpunk-2077')).toBeDefined();
    expect(cold.get('default', 'people/yamada-taro')).toBeUndefined();
    expect(cold.size).toBeLessThan(tricky.size / 2);
  });

  it('refuses a file that is not a snapshot, or is cut short', () => {
    const bad = join(dir, 'bad.bin');
    writeFileSync(bad, 'hello world, not a snapshot');
    expect(() => lookUpSnapshot(bad, ['x'])).toThrow(/not a page snapshot/);
    const path = join(dir, 'cut.bin');
    writeSnapshot(path, tricky, 1, new Date(0));
    writeFileSync(path, Buffer.concat([Buffer.from('BSPAGES1'), Buffer.from([0xff, 0xff, 0, 0])]));
    expect(() => lookUpSnapshot(path, ['x'])).toThrow(/truncated/);
  });
});

/** Every seed page of every fixture of a benchmark, in one index (first wins on a repeated slug). */
function benchIndex(names: string[]): { full: PageIndex; windows: Array<{ turns: Turn[]; source: string }> } {
  const full = new PageIndex();
  const windows: Array<{ turns: Turn[]; source: string }> = [];
  for (const name of names) {
    const { dir: benchDir, exists } = sharedBenchDir(name);
    if (!exists) continue;
    for (const { fixture } of loadBenchCases(benchDir)) {
      for (const seed of fixture.seed_pages ?? []) {
        const source = seed.source_id ?? 'default';
        if (full.get(source, seed.slug)) continue;
        try {
          full.upsert({ ...resolvePage(seed.content, { slugHint: seed.slug }), source_id: source, slug: seed.slug });
        } catch {
          // Seed errors are the benchmark tests' business.
        }
      }
      const turns = fixture.turns.map((t) => ({ role: t.role, text: t.text }) as Turn);
      // Every window of BrainBench; every third of LoCoMo's long conversations keeps the run short.
      const step = name === 'locomo' ? 3 : 1;
      for (let i = 0; i < turns.length; i += step) windows.push({ turns: turns.slice(Math.max(0, i - 3), i + 1), source: fixture.active_source ?? 'default' });
    }
  }
  return { full, windows };
}

const shared = ['brainbench', 'locomo'].map((n) => sharedBenchDir(n).exists);
describe.skipIf(!shared.some(Boolean))('page-index snapshot on the public benchmarks (all seed pages in one brain)', () => {
  it('every window decides the same from the snapshot as from the whole index', () => {
    const { full, windows } = benchIndex(['brainbench', 'locomo']);
    const path = join(dir, 'bench.bin');
    writeSnapshot(path, full, 1, new Date(0));
    let volunteered = 0;
    for (const { turns, source } of windows) {
      const cold = lookUpSnapshot(path, windowWords(turns.map((t) => t.text))).index;
      const opts = { scope: [source], remote: false, gazetteer: true, lexicalArms: true, minConfidence: 0, maxPages: 5 };
      const expected = volunteer(turns, full, opts);
      volunteered += expected.length;
      expect(volunteer(turns, cold, opts)).toEqual(expected);
    }
    // The comparison is not vacuous: the benchmarks name many pages.
    expect(volunteered).toBeGreaterThan(100);
  });
});
