import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openBrainOn } from '../src/brain/brain.js';
import { deterministicId, makeEvent, type Envelope } from '../src/domain/events.js';
import { openPgliteDb } from '../src/db/pglite-db.js';
import { MatchArm } from '../src/domain/event-schemas.js';
import { rebuildProjection } from '../src/event-log/rebuild-projection.js';
import { PROJECTIONS } from '../projections/registry.js';
import { generatePages } from './generate-brain.js';
import { pageEvents } from './generate-turns.js';
import type { Measurement } from './harness.js';
import { tempFolder } from './temp-folder.js';

/** Feedback traffic: volunteered pages over 60 days, a sixth of them read later in their session. */
function* feedbackLog(pages: readonly { source_id: string; slug: string }[], deliveries: number): Generator<Envelope[]> {
  const start = Date.parse('2026-01-01T00:00:00Z');
  let chunk: Envelope[] = [];
  for (let i = 0; i < deliveries; i++) {
    const p = pages[(i * 7919) % pages.length]!;
    const session = `s${Math.floor(i / 12)}`;
    const at = start + Math.floor((i / deliveries) * 60 * 86_400_000);
    const arm = MatchArm.options[i % 3]!;
    chunk.push(makeEvent(
      'page.volunteered',
      { source_id: p.source_id, slug: p.slug, confidence: 0.85, match_arm: arm, rationale: `${arm} match`, channel: i % 4 ? 'watch' : 'op', session_id: session, turn: i % 12 },
      { key: session, at: new Date(at).toISOString(), id: deterministicId('vol', 'bench', session, i, p.source_id, p.slug) },
    ));
    if (i % 6 === 0) chunk.push(makeEvent('page.retrieved', { source_id: p.source_id, slug: p.slug, session_id: i % 12 ? session : null }, { key: session, at: new Date(at + 60_000).toISOString() }));
    if (chunk.length >= 10_000) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * `brainstream rebuild` of every projection on an embedded brain of 20,000 pages and 100,000
 * volunteered pages (with ~17,000 reads): from sequence 0 into shadow tables, then the swap.
 */
export async function benchRebuild(pageCount = 20_000, deliveries = 100_000): Promise<Measurement[]> {
  const home = tempFolder('bs-bench-rebuild-');
  const brain = await openBrainOn(await openPgliteDb(join(home, 'db')));
  try {
    const pages = generatePages(pageCount);
    for (let i = 0; i < pages.length; i += 5000) await brain.commit(pageEvents(pages.slice(i, i + 5000)));
    for (const chunk of feedbackLog(pages, deliveries)) await brain.commit(chunk);
    const out: Measurement[] = [];
    for (const target of PROJECTIONS) {
      const t0 = performance.now();
      const report = await rebuildProjection(brain.db, brain.log, target);
      const seconds = (performance.now() - t0) / 1000;
      if (report.changed !== 0) throw new Error(`rebuild of ${target.name} changed ${report.changed} rows`);
      const rows = Object.values(report.rows).reduce((s, n) => s + n, 0);
      out.push({ name: `rebuild ${target.name} (${pageCount.toLocaleString('en')} pages, ${deliveries.toLocaleString('en')} deliveries)`, median: seconds, unit: 's', runs: [seconds], extra: { rows, 'log position': report.position } });
    }
    return out;
  } finally {
    await brain.close();
    rmSync(home, { recursive: true, force: true });
  }
}
