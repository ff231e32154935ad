import { describe, expect, it } from 'vitest';
import { openBrainOn, type Brain } from '../../../src/brain/brain.js';
import { deterministicId, makeEvent, pageKey, type Envelope } from '../../../src/domain/events.js';
import { LearnedState } from '../../../src/learning/learned-state.js';
import { learningEventOf, learningPageKey } from '../../../src/learning/learning-fold.js';
import { catchUp } from '../../../src/event-log/consumer.js';
import { rebuildProjection } from '../../../src/event-log/rebuild-projection.js';
import { EmbeddedReplaySource } from '../../../src/replay/embedded-turn-source.js';
import { runReplay, type ReplayOptions } from '../../../src/replay/replay.js';
import type { ReplayVolunteered } from '../../../src/replay/replay-types.js';
import { findProjection } from '../../../projections/registry.js';
import { readLearnedSnapshot } from '../../../projections/learning-projection.js';
import { purgeVolunteerEvents } from '../../../projections/volunteer-purge.js';
import type { TopologySettings } from '../../../streams/decide-turns.js';
import { PageIndexFollower } from '../../../streams/page-index-follower.js';
import { createVolunteerProcessor } from '../../../streams/volunteer-processor.js';
import { storageDrivers } from '../../support/databases.js';
import { dumpTable, upsertPage } from '../../support/feedback-log.js';

const drivers = await storageDrivers();
const T0 = Date.parse('2026-02-02T09:00:00Z');
const DAY = 86_400_000;
const at = (ms: number): string => new Date(ms).toISOString();

/**
 * A week of sessions in one source: every session names Maria (a speaker the agent never opens)
 * and two of the other pages, which the agent reads 30 s after the turn that named them.
 */
const PAGES = [['people/maria', 'Maria'], ['places/rome', 'Rome'], ['orgs/nike', 'Nike'], ['pets/max', 'Max'], ['media/dune', 'Dune'], ['places/lisbon', 'Lisbon']] as const;
const others = PAGES.slice(1);

interface Built {
  brain: Brain;
  /** The volunteered events the live processor logged. */
  live: Envelope<'page.volunteered'>[];
}

/**
 * Decides the sessions live, one at a time, as serve does: the turns are appended and decided,
 * the projections catch up, then the reads of that session are appended (and projected).
 */
async function buildLive(brain: Brain, learning: boolean, sessions = 10): Promise<Built> {
  await brain.commit(PAGES.map(([slug, title]) => upsertPage(slug, title, at(T0 - DAY))));
  const pages = await PageIndexFollower.load(brain.db, brain.log);
  const settings = (): TopologySettings => ({ windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false, learning });
  const processor = createVolunteerProcessor({ log: brain.log, pages, settings, channel: 'watch' });
  for (let s = 0; s < sessions; s++) {
    const session = `s${s}`;
    const start = T0 + s * DAY;
    const [a, b] = [others[s % others.length]!, others[(s + 2) % others.length]!];
    const texts = [`user: Maria here. Did you see ${a[1]}?`, 'assistant: Not yet, tell me more.', `user: Also ${b[1]} — Maria again.`, 'assistant: Noted.'];
    const turns = texts.map((line, i) => {
      const [role, text] = [line.slice(0, line.indexOf(':')) as 'user' | 'assistant', line.slice(line.indexOf(':') + 2)];
      return makeEvent('turn.appended', { session_id: session, turn: i + 1, role, text, source_id: 'default', settings: { window_turns: 4 } }, { key: session, at: at(start + i * 60_000) });
    });
    await brain.log.append(turns);
    await catchUp(brain.db, brain.log, processor);
    await brain.catchUp();
    const reads = [
      makeEvent('page.retrieved', { source_id: 'default', slug: a[0], session_id: session }, { key: session, at: at(start + 30_000) }),
      makeEvent('page.retrieved', { source_id: 'default', slug: b[0], session_id: session }, { key: session, at: at(start + 2 * 60_000 + 30_000) }),
    ];
    await brain.commit(reads);
  }
  const live = (await brain.log.read(1, { topics: ['volunteered'], limit: 100_000 })).events
    .map((e) => e.event)
    .filter((e): e is Envelope<'page.volunteered'> => e.type === 'page.volunteered');
  return { brain, live };
}

/** The learned state folded in memory from the whole log, in log order: what the projection must hold. */
async function foldedFromLog(brain: Brain): Promise<LearnedState> {
  const state = new LearnedState();
  for (const { event } of (await brain.log.read(1, { topics: ['volunteered', 'retrievals'], limit: 100_000 })).events) {
    const e = learningEventOf(event);
    if (e) state.apply(e);
  }
  return state;
}

async function projectedCounters(brain: Brain) {
  const pages = await brain.db.query<{ source_id: string; slug: string; sessions: number; used: number }>('SELECT source_id, slug, sessions, used FROM learning_pages');
  const arms = await brain.db.query<{ match_arm: string; volunteered: number; used: number }>('SELECT match_arm, volunteered, used FROM learning_arms');
  return {
    pages: new Map(pages.map((p) => [learningPageKey(p.source_id, p.slug), { sessions: p.sessions, used: p.used }])),
    arms: new Map(arms.map((a) => [a.match_arm, { volunteered: a.volunteered, used: a.used }])),
  };
}

const replayOptions = (over: Partial<ReplayOptions> = {}): ReplayOptions => ({
  gates: [0.7], windowTurns: 4, lexicalArms: true, gazetteer: true, remote: false, since: null, arms: null, workers: 0, ...over,
});

const asLogged = (v: ReplayVolunteered) => ({
  id: deterministicId('vol', 'watch', v.session, v.turn, v.source_id, v.slug),
  confidence: v.confidence,
  rationale: v.rationale,
  slug: v.slug,
});
const byId = <T extends { id: string }>(a: T, b: T): number => (a.id < b.id ? -1 : 1);

describe.each(drivers)('the learning gate on $name', ({ open }) => {
  it('the projection holds exactly what folding the log gives; its snapshot is what the decision reads', async () => {
    const { brain } = await buildLive(await openBrainOn(await open()), false);
    const folded = (await foldedFromLog(brain)).counters();
    expect(await projectedCounters(brain)).toEqual(folded);
    expect(folded.pages.get(learningPageKey('default', 'people/maria'))).toEqual({ sessions: 10, used: 0 });
    const snapshot = await readLearnedSnapshot(brain.db);
    expect(snapshot.page('default', 'people/maria')).toEqual({ sessions: 10, used: 0 });
    // Pages that cannot be lowered are left out of the snapshot: they keep their confidence anyway.
    expect(snapshot.page('default', 'places/rome')).toBeUndefined();
    expect(snapshot.total).toEqual({ volunteered: 30, used: 20 });
    expect(snapshot.readPages).toEqual({ sessions: 20, used: 20 });
  });

  it('live with learning on: a speaker never opened stops being pushed after a few sessions; the read pages are all still pushed', async () => {
    const statics = await buildLive(await openBrainOn(await open()), false);
    const learning = await buildLive(await openBrainOn(await open()), true);
    const count = (b: Built, slug: string) => b.live.filter((e) => e.data.slug === slug).length;
    expect(count(statics, 'people/maria')).toBe(10);
    expect(count(learning, 'people/maria')).toBeLessThan(6);
    expect(count(learning, 'people/maria')).toBeGreaterThanOrEqual(3);
    for (const [slug] of others) expect(count(learning, slug), slug).toBe(count(statics, slug));
  });

  it('replay --learned at the live gate reproduces the live learning decisions exactly, and scores both gates', async () => {
    const { brain, live } = await buildLive(await openBrainOn(await open()), true);
    const run = await runReplay(await EmbeddedReplaySource.open(brain.db), replayOptions({ learned: true, collect: [0] }));
    const replayed = run.volunteered.filter((v) => v.learned).map(asLogged).sort(byId);
    expect(replayed).toEqual(live.map((e) => ({ id: e.id, confidence: e.data.confidence, rationale: e.data.rationale, slug: e.data.slug })).sort(byId));
    const [staticGate] = run.report.thresholds;
    const [learnedGate] = run.report.learned!;
    expect(learnedGate!.volunteered).toBe(live.length);
    expect(staticGate!.volunteered).toBe(30);
    expect(learnedGate!.precision_session).toBeGreaterThan(staticGate!.precision_session + 0.1);
    expect(learnedGate!.recall).toBe(staticGate!.recall);
    // The same log gives the same decisions.
    const again = await runReplay(await EmbeddedReplaySource.open(brain.db), replayOptions({ learned: true, collect: [0] }));
    expect(again.report).toEqual(run.report);
    expect(again.volunteered).toEqual(run.volunteered);
  });

  it('replay --learned on a log built by the static gate: the learning gate lowers the unread page, with its reason', async () => {
    const { brain } = await buildLive(await openBrainOn(await open()), false);
    const run = await runReplay(await EmbeddedReplaySource.open(brain.db), replayOptions({ gates: [0, 0.7], learned: true, collect: [0] }));
    const maria = run.volunteered.filter((v) => v.learned && v.slug === 'people/maria');
    expect(maria).toHaveLength(10);
    const lowered = maria.filter((v) => v.rationale.includes('confidence lowered'));
    expect(lowered.length).toBeGreaterThan(4);
    expect(lowered.at(-1)!.rationale).toMatch(/confidence lowered: volunteered in 9 sessions, used in 0$/);
    expect(lowered.at(-1)!.confidence).toBeLessThan(0.7);
    expect(run.report.learned![1]!.precision_session).toBeGreaterThan(run.report.thresholds[1]!.precision_session);
  });

  it('rebuilds from sequence 0 byte-identical, before and after a purge; the purge forgets old sessions with their counts', async () => {
    const { brain } = await buildLive(await openBrainOn(await open()), false);
    const target = findProjection('learning')!;
    const dump = async () => Object.fromEntries(await Promise.all(target.tables.map(async (t) => [t.name, await dumpTable(brain.db, t.name, t.key.join(', '))] as const)));
    const before = await dump();
    expect((await rebuildProjection(brain.db, brain.log, target, { batchSize: 3 })).changed).toBe(0);
    expect(await dump()).toEqual(before);
    // Retention 5 days, as of the last session: sessions s0..s4 go.
    await purgeVolunteerEvents(brain, { ttlDays: 5, now: new Date(T0 + 9 * DAY + 3_600_000) });
    expect(await brain.db.query('SELECT DISTINCT session_id FROM learning_sessions ORDER BY session_id')).toEqual(['s5', 's6', 's7', 's8', 's9'].map((session_id) => ({ session_id })));
    const counters = await projectedCounters(brain);
    expect(counters.pages.get(learningPageKey('default', 'people/maria'))).toEqual({ sessions: 5, used: 0 });
    expect(counters).toEqual((await foldedFromLog(brain)).counters());
    const purged = await dump();
    for (const batchSize of [1, 1000]) expect((await rebuildProjection(brain.db, brain.log, target, { batchSize })).changed).toBe(0);
    expect(await dump()).toEqual(purged);
    // A retrieval older than the watermark, delivered late, teaches nothing.
    await brain.commit([makeEvent('page.retrieved', { source_id: 'default', slug: 'people/maria', session_id: 's1' }, { key: pageKey('default', 'people/maria'), at: at(T0 + DAY) })]);
    expect(await dump()).toEqual(purged);
  });
});
