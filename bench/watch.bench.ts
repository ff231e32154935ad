import { from } from 'rxjs';
import { openBrainOn } from '../src/brain/brain.js';
import { openPgliteDb } from '../src/db/pglite-db.js';
import { makeEvent, pageKey } from '../src/domain/events.js';
import { streamTurns } from '../src/ops/watch-stream.js';
import { TurnEngine } from '../streams/turn-engine.js';
import { generatePages } from './generate-brain.js';
import { median, type Measurement } from './harness.js';

/**
 * `watch` end to end on a 20,000-page embedded brain, through the turn engine `watch` and serve
 * run: 1,000 transcript lines in, turn events appended, decided, volunteered events appended and
 * projected (the stream ends when its projections are done).
 */
export async function benchWatch(pageCount = 20_000, turns = 1_000, runs = 5): Promise<Measurement[]> {
  const brain = await openBrainOn(await openPgliteDb());
  const pages = generatePages(pageCount);
  const events = pages.map((p) =>
    makeEvent('page.upserted', { ...p, content_hash: p.slug, file_path: null, origin: 'import' }, { key: pageKey(p.source_id, p.slug) }),
  );
  for (let i = 0; i < events.length; i += 2000) await brain.commit(events.slice(i, i + 2000));
  const lines: string[] = [];
  for (let i = 0; i < turns; i++) {
    const p = pages[(i * 7919) % pages.length]!;
    lines.push(i % 2 === 0 ? `user: what did ${p.title} say about the pricing thread?` : 'assistant: they asked for the updated deck before Friday.');
  }
  const rates: number[] = [];
  const setupMs: number[] = [];
  let volunteered = 0;
  const topology = () => ({ windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false });
  for (let run = 0; run < runs + 1; run++) {
    // Session set-up (loading the page index from the projection) is timed apart from the stream.
    const s0 = performance.now();
    const engine = await TurnEngine.start(brain, { settings: topology });
    const t0 = performance.now();
    let n = 0;
    await streamTurns(engine, from(lines), {
      sessionId: `bench-${run}`,
      sourceId: 'default',
      settings: {},
      onDecision: (d) => (n += d.volunteered.length),
    });
    const seconds = (performance.now() - t0) / 1000;
    await engine.stop();
    if (run > 0) {
      rates.push(turns / seconds);
      setupMs.push(t0 - s0);
    }
    volunteered = n;
  }
  await brain.close();
  return [
    {
      name: `watch: ${turns} turns on a ${pageCount.toLocaleString('en')}-page brain, end to end incl. logging`,
      median: Math.round(median(rates)),
      unit: 'turns/s',
      runs: rates.map(Math.round),
      extra: { volunteered_per_run: volunteered },
    },
    { name: `watch session set-up: page index loaded from ${pageCount.toLocaleString('en')} pages`, median: median(setupMs), unit: 'ms', runs: setupMs },
  ];
}
