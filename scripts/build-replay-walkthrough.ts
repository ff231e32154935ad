import { openBrain } from '../src/brain/brain.js';
import { makeEvent, pageKey, type Envelope } from '../src/domain/events.js';
import { loadBenchCases } from '../src/eval/fixtures.js';
import { catchUp } from '../src/log/consumer.js';
import { hashBytes } from '../src/ops/read-page-file.js';
import { resolvePage } from '../src/pages/resolve-page.js';
import { PageIndexFollower } from '../streams/page-index-follower.js';
import { createVolunteerProcessor } from '../streams/volunteer-processor.js';

/**
 * Builds a brain home whose log looks like weeks of real use, for `brainstream replay`
 * (docs/tuning.md): from a BrainBench-format folder (e.g. ../shared/locomo), every fixture
 * becomes one streaming session scoped to its conversation's source, decided live at the
 * default gate by the volunteer processor; then the agent "reads" each gold page in that
 * session 30 seconds after the turn that needed it (what `page get --session` records).
 *
 *   node dist/scripts/build-replay-walkthrough.js <fixtures-folder> <home>
 */
const [dir, home] = process.argv.slice(2);
if (!dir || !home) {
  process.stderr.write('usage: build-replay-walkthrough <fixtures-folder> <home>\n');
  process.exit(2);
}
const conversation = (fixtureId: string): string => fixtureId.replace(/-s\d+$/, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 32);
const brain = await openBrain(home);
try {
  const pages = await PageIndexFollower.load(brain.db, brain.log);
  const settings = () => ({ windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false });
  const processor = createVolunteerProcessor({ log: brain.log, pages, settings, channel: 'watch' });
  const seen = new Set<string>();
  let clock = Date.parse('2026-01-05T09:00:00Z');
  let turns = 0;
  let reads = 0;
  for (const { fixture, gold } of loadBenchCases(dir)) {
    const source = fixture.active_source ?? conversation(fixture.fixture_id);
    const pageEvents: Envelope[] = [];
    for (const p of fixture.seed_pages ?? []) {
      const sourceId = p.source_id ?? source;
      const hash = hashBytes(p.content);
      if (seen.has(`${sourceId}/${p.slug}/${hash}`)) continue;
      seen.add(`${sourceId}/${p.slug}/${hash}`);
      const page = resolvePage(p.content, { slugHint: p.slug });
      pageEvents.push(makeEvent('page.upserted', { source_id: sourceId, slug: p.slug, ...page, content_hash: hash, file_path: null, origin: 'import' }, { key: pageKey(sourceId, p.slug), at: new Date(clock).toISOString() }));
    }
    await brain.commit(pageEvents);
    const session = fixture.fixture_id;
    const events: Envelope[] = [];
    for (const t of fixture.turns) {
      clock += 60_000;
      events.push(makeEvent('turn.appended', { session_id: session, turn: t.turn_id, role: t.role, text: t.text, source_id: source, settings: { window_turns: 4 } }, { key: session, at: new Date(clock).toISOString() }));
      for (const slug of gold?.turns[String(t.turn_id)]?.gold_slugs ?? []) {
        events.push(makeEvent('page.retrieved', { source_id: source, slug, session_id: session }, { key: session, at: new Date(clock + 30_000).toISOString() }));
        reads++;
      }
      turns++;
    }
    await brain.log.append(events);
    await catchUp(brain.db, brain.log, processor);
    clock += 6 * 3_600_000;
  }
  await brain.catchUp();
  process.stdout.write(`built ${home}: ${turns} turns, ${reads} simulated reads\n`);
} finally {
  await brain.close();
}
