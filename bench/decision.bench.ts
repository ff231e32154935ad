import { PageIndex } from '../src/context/page-index.js';
import type { Turn } from '../src/context/turn.js';
import { volunteer } from '../src/context/volunteer.js';
import { generatePages } from './generate-brain.js';
import { median, percentile, type Measurement } from './harness.js';

/** A 4-turn window naming a few pages of the generated brain, plus filler words. */
function windows(pages: ReturnType<typeof generatePages>, count: number): Turn[][] {
  const out: Turn[][] = [];
  for (let i = 0; i < count; i++) {
    const a = pages[(i * 7919) % pages.length]!;
    const b = pages[(i * 104729 + 13) % pages.length]!;
    out.push([
      { role: 'user', text: `Morning. Can you pull up what we know about ${a.title} before the call?` },
      { role: 'assistant', text: 'Sure, give me a second to check the notes from last week.' },
      { role: 'user', text: `Also ${(b.frontmatter.aliases as string[])[0]} mentioned a follow-up on the pricing thread.` },
      { role: 'assistant', text: `Noted. ${a.title} asked for the deck on Monday and we still owe them the numbers.` },
    ]);
  }
  return out;
}

function heapMiB(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * In-process decision for one turn with a 4-turn window, at growing brain sizes: p50/p99 per
 * decision and the index's memory. Run node with --expose-gc for exact memory figures.
 */
export async function benchDecision(sizes = [1_000, 20_000, 100_000, 1_000_000], decisions = 20_000): Promise<Measurement[]> {
  const results: Measurement[] = [];
  const p50s = new Map<number, number>();
  for (const size of sizes) {
    const pages = generatePages(size);
    const before = heapMiB();
    const t0 = performance.now();
    const index = new PageIndex();
    for (const p of pages) index.upsert(p);
    const buildMs = performance.now() - t0;
    const indexMiB = heapMiB() - before;
    const ws = windows(pages, 2_000);
    const opts = { scope: ['default'], minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true };
    for (let i = 0; i < 2_000; i++) volunteer(ws[i % ws.length]!, index, opts); // warm-up
    const times: number[] = [];
    let volunteered = 0;
    for (let i = 0; i < decisions; i++) {
      const t = process.hrtime.bigint();
      volunteered += volunteer(ws[i % ws.length]!, index, opts).length;
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    if (volunteered === 0) throw new Error('decision bench volunteered nothing: the windows do not name pages');
    p50s.set(size, median(times));
    results.push({
      name: `decision, 4-turn window, ${size.toLocaleString('en')} pages`,
      median: median(times),
      unit: 'ms',
      runs: [percentile(times, 99)],
      extra: { p99_ms: Number(percentile(times, 99).toFixed(4)), index_build_s: Number((buildMs / 1000).toFixed(2)), index_heap_MiB: Math.round(indexMiB), pages_per_decision: Number((volunteered / decisions).toFixed(2)) },
    });
    pages.length = 0;
  }
  const first = p50s.get(sizes[0]!)!;
  const last = p50s.get(sizes.at(-1)!)!;
  results.push({ name: `flatness: p50 at ${sizes.at(-1)} ÷ p50 at ${sizes[0]}`, median: last / first, unit: '×', runs: [] });
  return results;
}
