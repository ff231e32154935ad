import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PageIndex } from '../src/context/page-index.js';
import type { WatchSessionState } from '../src/context/watch-session.js';
import { openBrain } from '../src/brain/brain.js';
import { makeEvent, pageKey, type Envelope } from '../src/domain/events.js';
import { loadBenchCases, type BenchCase } from '../src/eval/fixtures.js';
import { catchUp } from '../src/event-log/consumer.js';
import { hashBytes } from '../src/ops/read-page-file.js';
import { resolvePage } from '../src/pages/resolve-page.js';
import { decideTurns, type TopologySettings, type TurnEvent } from '../streams/decide-turns.js';
import { PageIndexFollower } from '../streams/page-index-follower.js';
import { createVolunteerProcessor } from '../streams/volunteer-processor.js';

/**
 * Builds a brain home whose log looks like weeks of real use, for `brainstream replay`
 * (docs/tuning.md): from a BrainBench-format folder (e.g. ../shared/locomo), every fixture
 * becomes one streaming session scoped to its conversation's source, decided live at the
 * default gate by the volunteer processor; then the agent "reads" each gold page in that
 * session 30 seconds after the turn that needed it (what `page get --session` records).
 *
 * `--never-read 0.33`: that share of the distinct pages the log volunteers is never read in any
 * session (pages the benchmark does not mark as needed count towards it; the rest are chosen by
 * a hash of source and slug, so every build picks the same ones) — pages an agent never opens.
 *
 *   node dist/scripts/build-replay-walkthrough.js [--never-read SHARE] <fixtures-folder> <home>
 */
const { values, positionals } = parseArgs({ options: { 'never-read': { type: 'string' } }, allowPositionals: true });
const [dir, home] = positionals;
const neverReadShare = values['never-read'] === undefined ? 0 : Number(values['never-read']);
if (!dir || !home || !(neverReadShare >= 0 && neverReadShare <= 1)) {
  process.stderr.write('usage: build-replay-walkthrough [--never-read SHARE] <fixtures-folder> <home>\n');
  process.exit(2);
}

const SETTINGS: TopologySettings = { windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false, learning: false };
const START = Date.parse('2026-01-05T09:00:00Z');
const conversation = (fixtureId: string): string => fixtureId.replace(/-s\d+$/, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, 32);

/** One fixture as log events: its new page versions, then its turns with the reads of their gold pages. */
interface Session {
  pageEvents: Envelope<'page.upserted'>[];
  turns: { event: TurnEvent; reads: Envelope<'page.retrieved'>[] }[];
}

function sessionsOf(cases: readonly BenchCase[]): Session[] {
  const seen = new Set<string>();
  let clock = START;
  const out: Session[] = [];
  for (const { fixture, gold } of cases) {
    const source = fixture.active_source ?? conversation(fixture.fixture_id);
    const pageEvents: Envelope<'page.upserted'>[] = [];
    for (const p of fixture.seed_pages ?? []) {
      const sourceId = p.source_id ?? source;
      const hash = hashBytes(p.content);
      if (seen.has(`${sourceId}/${p.slug}/${hash}`)) continue;
      seen.add(`${sourceId}/${p.slug}/${hash}`);
      const page = resolvePage(p.content, { slugHint: p.slug });
      pageEvents.push(makeEvent('page.upserted', { source_id: sourceId, slug: p.slug, ...page, content_hash: hash, file_path: null, origin: 'import' }, { key: pageKey(sourceId, p.slug), at: new Date(clock).toISOString() }));
    }
    const session = fixture.fixture_id;
    const turns: Session['turns'] = [];
    for (const t of fixture.turns) {
      clock += 60_000;
      const event = makeEvent('turn.appended', { session_id: session, turn: t.turn_id, role: t.role, text: t.text, source_id: source, settings: { window_turns: 4 } }, { key: session, at: new Date(clock).toISOString() });
      const reads = (gold?.turns[String(t.turn_id)]?.gold_slugs ?? []).map((slug) =>
        makeEvent('page.retrieved', { source_id: source, slug, session_id: session }, { key: session, at: new Date(clock + 30_000).toISOString() }));
      turns.push({ event, reads });
    }
    out.push({ pageEvents, turns });
    clock += 6 * 3_600_000;
  }
  return out;
}

const rank = (page: string): string => createHash('sha256').update(page).digest('hex');

/**
 * The pages never to be read: the same decision the log will record, made in memory first to learn
 * which pages get volunteered; then enough of the read ones, in hash order, to make `share` of
 * the volunteered pages unread.
 */
function neverRead(sessions: readonly Session[], share: number): { pages: Set<string>; volunteered: number; unread: number } {
  const index = new PageIndex({ gazetteer: SETTINGS.gazetteer });
  const state = new Map<string, WatchSessionState>();
  const volunteered = new Set<string>();
  const read = new Set<string>();
  for (const s of sessions) {
    for (const e of s.pageEvents) index.upsert(e.data);
    const decided = decideTurns(s.turns.map((t) => t.event), index, state, SETTINGS, 'watch');
    for (const e of decided.events) volunteered.add(pageKey(e.data.source_id, e.data.slug));
    for (const t of s.turns) for (const r of t.reads) read.add(pageKey(r.data.source_id, r.data.slug));
  }
  const readVolunteered = [...volunteered].filter((p) => read.has(p)).sort((a, b) => (rank(a) < rank(b) ? -1 : 1));
  const alreadyUnread = volunteered.size - readVolunteered.length;
  const wanted = Math.max(0, Math.round(share * volunteered.size) - alreadyUnread);
  const pages = new Set(readVolunteered.slice(0, wanted));
  return { pages, volunteered: volunteered.size, unread: alreadyUnread + pages.size };
}

const sessions = sessionsOf(loadBenchCases(dir));
const unread = neverReadShare > 0 ? neverRead(sessions, neverReadShare) : null;
const brain = await openBrain(home);
try {
  const pages = await PageIndexFollower.load(brain.db, brain.log);
  const processor = createVolunteerProcessor({ log: brain.log, pages, settings: () => SETTINGS, channel: 'watch' });
  let turns = 0;
  let reads = 0;
  for (const s of sessions) {
    await brain.commit(s.pageEvents);
    const events: Envelope[] = [];
    for (const t of s.turns) {
      events.push(t.event);
      for (const r of t.reads) {
        if (unread?.pages.has(pageKey(r.data.source_id, r.data.slug))) continue;
        events.push(r);
        reads++;
      }
      turns++;
    }
    await brain.log.append(events);
    await catchUp(brain.db, brain.log, processor);
  }
  await brain.catchUp();
  const share = unread ? `; ${unread.unread} of the ${unread.volunteered} volunteered pages are never read` : '';
  process.stdout.write(`built ${home}: ${turns} turns, ${reads} simulated reads${share}\n`);
} finally {
  await brain.close();
}
