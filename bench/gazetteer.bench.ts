import { PageIndex } from '../src/context/page-index.js';
import type { Page } from '../src/pages/page.js';
import { generatePages } from './generate-brain.js';
import { median, percentile, type Measurement } from './harness.js';

/** Heap in use after full collections; the memory figures mean nothing without them. */
function heapMiB(): number {
  const gc = globalThis.gc;
  if (!gc) throw new Error('the gazetteer benchmark needs node --expose-gc (npm run bench passes it)');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

interface Build {
  ms: number;
  heapMiB: number;
  /** Gazetteer.stats() of the built index (zeros without it). */
  terms: number;
  prefixes: number;
}

function indexOf(pages: readonly Page[], gazetteer: boolean): PageIndex {
  const index = new PageIndex({ gazetteer });
  for (const p of pages) index.upsert(p);
  return index;
}

/** Builds the page index of `pages` from scratch: its time and the heap it holds once built. */
function build(pages: readonly Page[], gazetteer: boolean): Build {
  const before = heapMiB();
  const t0 = performance.now();
  const index = indexOf(pages, gazetteer);
  const ms = performance.now() - t0;
  const held = heapMiB() - before;
  return { ms, heapMiB: held, ...(index.gazetteer?.stats() ?? { terms: 0, prefixes: 0 }) };
}

/** A page renamed: new title and a new alias (every registered name of the page changes). */
function renamed(p: Page): Page {
  const aliases = (p.frontmatter.aliases as string[]).map((a) => `${a} Renamed`);
  return { ...p, title: `${p.title} Renamed`, frontmatter: { ...p.frontmatter, aliases } };
}

/**
 * Incremental edits: upserts of existing pages that change their title and alias, then put them
 * back, each timed alone (µs). The index keeps its size; the first `warmup` edits are untimed.
 */
function editTimes(index: PageIndex, pages: readonly Page[], edits: number, warmup = 200): number[] {
  const times: number[] = [];
  const count = Math.floor((edits + warmup) / 2);
  for (let k = 0; k < count; k++) {
    const p = pages[(k * 7919 + 11) % pages.length]!;
    for (const version of [renamed(p), p]) {
      const t0 = process.hrtime.bigint();
      index.upsert(version);
      const us = Number(process.hrtime.bigint() - t0) / 1e3;
      if (2 * k >= warmup) times.push(us);
    }
  }
  return times;
}

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

/**
 * The gazetteer's cost (issue 8): the page index built without and with it at each size, in the
 * same run and alternating, so machine load hits both alike (medians after one warm-up build of
 * each; paired differences per run); then one incremental page edit (title and alias) on both.
 */
export async function benchGazetteer(sizes = [20_000, 100_000, 1_000_000], edits = 4_000): Promise<Measurement[]> {
  const results: Measurement[] = [];
  for (const size of sizes) {
    const pages = generatePages(size);
    const runs = size >= 1_000_000 ? 3 : 5;
    const off: Build[] = [];
    const on: Build[] = [];
    for (let run = 0; run <= runs; run++) {
      const a = build(pages, false);
      const b = build(pages, true);
      // The first pair warms the code paths up and is not counted.
      if (run > 0) {
        off.push(a);
        on.push(b);
      }
    }
    const stats = on.at(-1)!;
    const label = size.toLocaleString('en');
    const buildShare = on.map((b, i) => b.ms - off[i]!.ms);
    const heapShare = on.map((b, i) => b.heapMiB - off[i]!.heapMiB);
    results.push({
      name: `index build, ${label} pages, gazetteer off`,
      median: median(off.map((b) => b.ms)),
      unit: 'ms',
      runs: off.map((b) => round(b.ms)),
      extra: { heap_MiB: round(median(off.map((b) => b.heapMiB))) },
    });
    results.push({
      name: `index build, ${label} pages, gazetteer on`,
      median: median(on.map((b) => b.ms)),
      unit: 'ms',
      runs: on.map((b) => round(b.ms)),
      extra: { heap_MiB: round(median(on.map((b) => b.heapMiB))), terms: stats.terms, prefixes: stats.prefixes },
    });
    results.push({
      name: `gazetteer share of the build, ${label} pages (on − off, same run)`,
      median: median(buildShare),
      unit: 'ms',
      runs: buildShare.map((d) => round(d)),
      extra: { heap_MiB: round(median(heapShare)), heap_runs_MiB: heapShare.map((d) => round(d)).join(' / ') },
    });
    const editsOff = editTimes(indexOf(pages, false), pages, edits);
    const editsOn = editTimes(indexOf(pages, true), pages, edits);
    results.push({
      name: `one page edit (title + alias), ${label} pages, gazetteer on`,
      median: median(editsOn),
      unit: 'µs',
      runs: [round(percentile(editsOn, 99))],
      extra: {
        p99_us: round(percentile(editsOn, 99)),
        gazetteer_off_median_us: round(median(editsOff)),
        gazetteer_off_p99_us: round(percentile(editsOff, 99)),
        edits: editsOn.length,
      },
    });
    pages.length = 0;
  }
  return results;
}
