import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { deterministicId, makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import { runWatch } from '../../../src/ops/watch-stream.js';
import { EmbeddedReplaySource } from '../../../src/replay/embedded-turn-source.js';
import { runReplay, type ReplayOptions } from '../../../src/replay/replay.js';
import type { ReplayVolunteered } from '../../../src/replay/replay-types.js';
import { volunteerStats } from '../../../src/stats/volunteer-stats.js';
import { generatePages } from '../../../bench/generate-brain.js';
import { storageDrivers } from '../../support/databases.js';
import { deletePage, retrieval, upsertPage } from '../../support/feedback-log.js';

const drivers = await storageDrivers();
/** Pages of every arm: generated titles and aliases, unique surnames (0.72), slug tails (0.6). */
const SPECIAL = [
  { slug: 'people/ronan-galewright', title: 'Ronan Galewright' },
  { slug: 'people/mira-quillfeather', title: 'Mira Quillfeather' },
  { slug: 'projects/widget-co', title: 'The Widget Company Project' },
  { slug: 'projects/blue-harbor', title: 'Harbor Expansion Plan' },
];
const pages = [
  ...generatePages(120),
  ...SPECIAL.map((p) => ({ source_id: 'default', slug: p.slug, title: p.title, type: p.slug.startsWith('people/') ? 'person' : 'project', frontmatter: {}, compiled_truth: `${p.title}.`, timeline: '' })),
];
const person = (i: number) => pages.filter((p) => p.type === 'person')[i]!;
const company = (i: number) => pages.filter((p) => p.type === 'company')[i]!;

/** Transcript lines naming pages by title, alias, surname and slug tail, with pronoun follow-ups. */
function transcript(seed: number, length: number): string[] {
  return Array.from({ length }, (_, i) => {
    const p = person((seed * 7 + i * 3) % 60);
    const c = company((seed + i) % 30);
    switch ((seed + i) % 6) {
      case 0: return `user: what did ${p.title} say about ${c.title}?`;
      case 1: return `assistant: ${(p.frontmatter as { aliases: string[] }).aliases[0]} mentioned ${c.slug.split('/')[1]} twice.`;
      case 2: return `user: did ${p.title.split(' ')[1]} follow up with her?`;
      case 3: return (seed + i) % 4 === 1 ? 'user: did Galewright ever follow up on that intro?' : `assistant: any updates on ${(seed + i) % 3 ? 'Widget-Co' : 'Blue-Harbor'} this week? Quillfeather asked.`;
      case 4: return `user: loop in ${p.title} and ${person((seed + i) % 60).title} on the ${c.title} thread`;
      default: return `assistant: noted — ${(c.frontmatter as { aliases: string[] }).aliases[0]} it is.`;
    }
  });
}

const topology = (minConfidence = 0.7) => () => ({ windowTurns: 4, minConfidence, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false });

async function liveBrain(brain: Brain): Promise<void> {
  await brain.commit(pages.map((p) => makeEvent('page.upserted', { ...p, content_hash: p.slug, file_path: null, origin: 'import' }, { key: pageKey(p.source_id, p.slug) })));
  await runWatch(brain, from(transcript(1, 30)), { sessionId: 'a', sourceId: 'default', settings: { window_turns: 4 }, topology: topology(), onDecision: () => {} });
  // Pages change between sessions: the replay's index must follow the log.
  await brain.commit([upsertPage('people/new-face', 'Zora Newface', new Date().toISOString()), deletePage(person(2).slug, new Date().toISOString())]);
  await Promise.all([
    runWatch(brain, from([...transcript(2, 25), 'user: ask Zora Newface about it']), { sessionId: 'b', sourceId: 'default', settings: { max_pages: 1 }, topology: topology(), onDecision: () => {} }),
    runWatch(brain, from(transcript(3, 25)), { sessionId: 'c', sourceId: 'default', settings: { window_turns: 2 }, topology: topology(), onDecision: () => {} }),
  ]);
  // Some volunteered pages are read later in their session, some elsewhere.
  const vol = (await brain.log.read(1, { topics: ['volunteered'], limit: 100_000 })).events.map((e) => e.event as Envelope<'page.volunteered'>);
  const later = new Date(Date.now() + 60_000).toISOString();
  await brain.commit(vol.filter((_, i) => i % 3 === 0).map((e) => retrieval(e.data.slug, i3(e), later)));
}
const i3 = (e: Envelope<'page.volunteered'>): string | null => (e.data.turn! % 2 === 0 ? e.data.session_id : 'elsewhere');

const options = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({
  gates: [0.6, 0.7, 0.8], windowTurns: 4, lexicalArms: true, gazetteer: true, remote: false, since: null, arms: null, workers: 0, collect: [1], ...over,
});

const asLogged = (v: ReplayVolunteered) => ({
  id: deterministicId('vol', 'watch', v.session, v.turn, v.source_id, v.slug),
  at: new Date(v.at).toISOString(),
  data: { source_id: v.source_id, slug: v.slug, confidence: v.confidence, match_arm: v.arm, rationale: v.rationale, channel: 'watch', session_id: v.session, turn: v.turn, display: v.display, synopsis: v.synopsis },
});

async function liveVolunteered(brain: Brain, since = 0) {
  const events = (await brain.log.read(1, { topics: ['volunteered'], limit: 100_000 })).events.map((e) => e.event as Envelope<'page.volunteered'>);
  return events.filter((e) => Date.parse(e.at) >= since).map((e) => ({ id: e.id, at: e.at, data: e.data })).sort((a, b) => (a.id < b.id ? -1 : 1));
}

describe.each(drivers)('replay on $name', ({ open }) => {
  it('at the live gate reproduces exactly the live volunteered events, and their precision figures', async () => {
    const brain = await openBrainOn(await open());
    await liveBrain(brain);
    const live = await liveVolunteered(brain);
    expect(live.length).toBeGreaterThan(20);
    const run = await runReplay(await EmbeddedReplaySource.open(brain.db), options());
    expect(run.volunteered.map(asLogged).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(live);
    const at07 = run.report.thresholds[1]!;
    expect(at07.volunteered).toBe(live.length);
    for (const [attribution, key] of [['session', 'used_session'], ['approximate', 'used_approximate']] as const) {
      const stats = await volunteerStats(brain.db, ['default'], 3650, attribution);
      expect(at07[key], attribution).toBe(stats.total_used);
      for (const row of stats.by_arm) expect(at07.by_arm.find((a) => a.match_arm === row.match_arm)![key]).toBe(row.used);
    }
    // A lower gate volunteers at least as much; the recall denominator does not depend on the gate.
    expect(run.report.thresholds[0]!.volunteered).toBeGreaterThanOrEqual(at07.volunteered);
    expect(run.report.retrieved_in_session).toBeGreaterThan(0);
    // Nothing was written.
    expect(await liveVolunteered(brain)).toEqual(live);
  });

  it('counts from --since on, with the session state built from the turns before it', async () => {
    const brain = await openBrainOn(await open());
    await liveBrain(brain);
    const turns = (await brain.log.read(1, { topics: ['turns'], limit: 100_000 })).events.filter((e) => e.event.type === 'turn.appended' && e.event.data.session_id === 'a' && e.event.data.turn === 20);
    const since = Date.parse(turns[0]!.event.at);
    const run = await runReplay(await EmbeddedReplaySource.open(brain.db), options({ since }));
    expect(run.volunteered.map(asLogged).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(await liveVolunteered(brain, since));
  });

  it('skips log entries of an unknown version with a count, and is not thrown by them', async () => {
    const brain = await openBrainOn(await open());
    await liveBrain(brain);
    const before = await runReplay(await EmbeddedReplaySource.open(brain.db), options());
    await brain.db.query(
      `INSERT INTO events (id, topic, type, v, key, at, data) VALUES ('future-turn', 'turns', 'turn.appended', 9, 'a', now(), '{"x":1}'::jsonb)`,
    );
    const run = await runReplay(await EmbeddedReplaySource.open(brain.db), options());
    expect(run.report.skipped_events).toBe(1);
    expect(run.report.skipped_reasons).toEqual({ 'unknown version 9 of event type "turn.appended"': 1 });
    expect(run.report.thresholds).toEqual(before.report.thresholds);
  });
});
