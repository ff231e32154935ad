import { describe, expect, it } from 'vitest';
import { volunteer } from '../../../src/context/volunteer.js';
import { LearnedState } from '../../../src/learning/learned-state.js';
import {
  armCalibration,
  habituation,
  learnedConfidence,
  MIN_UNUSED_SESSIONS,
  wilsonInterval,
  type ArmOutcomes,
  type LearnedSnapshot,
  type PageOutcomes,
} from '../../../src/learning/learning-rule.js';
import { indexOf, user } from '../context/helpers.js';

/** A snapshot from plain counters: pages by `source/slug`, arms by name. */
function snapshot(pages: Record<string, PageOutcomes>, arms: Partial<Record<string, ArmOutcomes>> = {}, readPages: PageOutcomes = { sessions: 100, used: 90 }): LearnedSnapshot {
  const total = Object.values(arms).reduce<ArmOutcomes>((t, a) => ({ volunteered: t.volunteered + a!.volunteered, used: t.used + a!.used }), { volunteered: 0, used: 0 });
  return { page: (s, slug) => pages[`${s}/${slug}`], arm: (a) => arms[a], total, readPages };
}

describe('the Wilson interval', () => {
  it('is wide on little evidence and narrows around the observed rate', () => {
    const one = wilsonInterval(0, 1);
    expect(one.lower).toBe(0);
    expect(one.upper).toBeGreaterThan(0.7);
    const many = wilsonInterval(0, 30);
    expect(many.upper).toBeLessThan(0.1);
    const half = wilsonInterval(50, 100);
    expect(half.lower).toBeGreaterThan(0.4);
    expect(half.upper).toBeLessThan(0.6);
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1 });
  });
});

describe('habituation', () => {
  it('keeps a page until it went unread in enough sessions, then lowers it more with every unread session', () => {
    const rate = 0.9;
    for (let n = 0; n < MIN_UNUSED_SESSIONS; n++) expect(habituation({ sessions: n, used: 0 }, rate)).toBe(1);
    const factors = [3, 4, 6, 12].map((n) => habituation({ sessions: n, used: 0 }, rate));
    expect(factors[0]).toBeLessThan(1);
    for (let i = 1; i < factors.length; i++) expect(factors[i]).toBeLessThan(factors[i - 1]!);
  });

  it('a page read again regains its confidence; one read as often as others keeps it', () => {
    const rate = 0.9;
    const unread = habituation({ sessions: 12, used: 0 }, rate);
    expect(habituation({ sessions: 13, used: 1 }, rate)).toBeGreaterThan(unread);
    expect(habituation({ sessions: 20, used: 18 }, rate)).toBe(1);
    expect(habituation(undefined, rate)).toBe(1);
  });

  it('is measured against the pages agents do read, so a low rate there makes the bar lower', () => {
    const page = { sessions: 6, used: 0 };
    expect(habituation(page, 0.3)).toBeGreaterThan(habituation(page, 0.9));
  });
});

describe('per-arm calibration', () => {
  it('moves an arm only when its precision is credibly away from the brain’s, within [0.9, 1.1]', () => {
    expect(armCalibration({ volunteered: 400, used: 200 }, 0.5)).toBe(1);
    expect(armCalibration({ volunteered: 3, used: 1 }, 0.5)).toBe(1);
    const weak = armCalibration({ volunteered: 200, used: 60 }, 0.5);
    expect(weak).toBeLessThan(1);
    expect(weak).toBeGreaterThanOrEqual(0.9);
    expect(armCalibration({ volunteered: 200, used: 0 }, 0.5)).toBe(0.9);
    expect(armCalibration({ volunteered: 200, used: 200 }, 0.5)).toBe(1.1);
    expect(armCalibration(undefined, 0.5)).toBe(1);
  });
});

describe('learnedConfidence', () => {
  it('says why a confidence moved, in the words of the log', () => {
    const snap = snapshot({ 'default/people/maria': { sessions: 12, used: 0 } }, { title: { volunteered: 400, used: 200 }, alias: { volunteered: 400, used: 200 } });
    const lowered = learnedConfidence(snap, 'default', 'people/maria', 'title');
    expect(lowered.factor).toBeLessThan(0.5);
    expect(lowered.notes).toEqual(['confidence lowered: volunteered in 12 sessions, used in 0']);
    expect(learnedConfidence(snap, 'default', 'places/rome', 'title')).toEqual({ factor: 1, notes: [] });
    const calibrated = learnedConfidence(snapshot({}, { alias: { volunteered: 300, used: 290 }, title: { volunteered: 300, used: 60 } }), 'default', 'x', 'title');
    expect(calibrated.factor).toBeLessThan(1);
    expect(calibrated.notes).toEqual([`title arm ×${calibrated.factor.toFixed(2)}: used in 20% of its sessions, 58% overall`]);
  });

  it('an empty log changes nothing', () => {
    expect(learnedConfidence(new LearnedState().snapshot(), 'default', 'people/maria', 'alias')).toEqual({ factor: 1, notes: [] });
  });
});

describe('the learning gate in the volunteer decision', () => {
  const index = indexOf({ 'people/maria': { title: 'Maria' }, 'places/rome': { title: 'Rome' }, 'people/john-fiorelli': { title: 'John Fiorelli' } });
  const turns = [user('Maria booked Rome for the trip with Fiorelli')];
  const options = { scope: ['default'], minConfidence: 0.7, maxPages: 3 };
  const habituated = snapshot({ 'default/people/maria': { sessions: 12, used: 0 } });

  it('without a snapshot, or with an empty one, the decision is the static gate’s', () => {
    const plain = volunteer(turns, index, options);
    expect(plain.map((p) => p.slug)).toEqual(['people/maria', 'places/rome', 'people/john-fiorelli']);
    expect(volunteer(turns, index, { ...options, learned: new LearnedState().snapshot() })).toEqual(plain);
  });

  it('a page volunteered in many sessions and never read falls below the gate; the others keep their place', () => {
    const learned = volunteer(turns, index, { ...options, learned: habituated });
    expect(learned.map((p) => p.slug)).toEqual(['places/rome', 'people/john-fiorelli']);
    // Still there below the gate, with the reason in its rationale.
    const open = volunteer(turns, index, { ...options, minConfidence: 0, learned: habituated });
    const maria = open.find((p) => p.slug === 'people/maria')!;
    expect(maria.confidence).toBeLessThan(0.7);
    expect(maria.rationale).toBe('exact title match "Maria"; mentioned in the newest turn; confidence lowered: volunteered in 12 sessions, used in 0');
    expect(open.at(-1)!.slug).toBe('people/maria');
  });

  it('is deterministic: the same turns and snapshot give the same pages, confidences and rationales', () => {
    const a = volunteer(turns, index, { ...options, minConfidence: 0, learned: habituated });
    const b = volunteer(turns, index, { ...options, minConfidence: 0, learned: snapshot({ 'default/people/maria': { sessions: 12, used: 0 } }) });
    expect(b).toEqual(a);
  });

  it('a lowered page frees its cap slot for the next page', () => {
    const capped = { ...options, maxPages: 2 };
    expect(volunteer(turns, index, capped).map((p) => p.slug)).toEqual(['people/maria', 'places/rome']);
    expect(volunteer(turns, index, { ...capped, learned: habituated }).map((p) => p.slug)).toEqual(['places/rome', 'people/john-fiorelli']);
  });
});
