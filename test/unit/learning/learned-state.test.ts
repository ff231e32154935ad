import { describe, expect, it } from 'vitest';
import { LearnedState } from '../../../src/learning/learned-state.js';
import { learningEventOf, type LearningEvent } from '../../../src/learning/learning-fold.js';
import { makeEvent } from '../../../src/domain/events.js';
import type { MatchArm } from '../../../src/domain/event-schemas.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const min = (n: number): number => T0 + n * 60_000;
const vol = (slug: string, session: string, at: number, arm: MatchArm = 'title', source = 'default'): LearningEvent => ({ kind: 'volunteered', source_id: source, slug, session_id: session, arm, at });
const read = (slug: string, session: string, at: number, source = 'default'): LearningEvent => ({ kind: 'read', source_id: source, slug, session_id: session, at });

function fold(events: readonly LearningEvent[]): LearnedState {
  const state = new LearnedState();
  for (const e of events) state.apply(e);
  return state;
}

describe('the learned state', () => {
  it('counts sessions per page (any read counts as used) and per arm (read after the push, in its session)', () => {
    const s = fold([
      vol('people/maria', 's1', min(1)),
      vol('people/maria', 's2', min(10)),
      read('people/maria', 's2', min(11)),
      // Read before it was pushed in s3: the page was wanted there, but the push was not what got it read.
      read('people/maria', 's3', min(20)),
      vol('people/maria', 's3', min(21), 'alias'),
      // Read in a session it was never pushed in.
      read('people/maria', 's4', min(30)),
    ]).snapshot();
    expect(s.page('default', 'people/maria')).toEqual({ sessions: 4, used: 3 });
    expect(s.arm('title')).toEqual({ volunteered: 2, used: 1 });
    expect(s.arm('alias')).toEqual({ volunteered: 1, used: 0 });
    expect(s.total).toEqual({ volunteered: 3, used: 1 });
    expect(s.readPages).toEqual({ sessions: 4, used: 3 });
  });

  it('keeps pages apart per source, and a page never read out of the read-page yardstick', () => {
    const s = fold([vol('people/john', 's1', min(1), 'title', 'a'), vol('people/john', 's1', min(1), 'title', 'b'), read('people/john', 's1', min(2), 'b')]).snapshot();
    expect(s.page('a', 'people/john')).toEqual({ sessions: 1, used: 0 });
    expect(s.page('b', 'people/john')).toEqual({ sessions: 1, used: 1 });
    expect(s.readPages).toEqual({ sessions: 1, used: 1 });
  });

  it('a read logged before its volunteered event (a push decided after the read was appended) still counts for the push', () => {
    const s = fold([read('people/maria', 's1', min(2)), vol('people/maria', 's1', min(1))]).snapshot();
    expect(s.arm('title')).toEqual({ volunteered: 1, used: 1 });
  });

  it('a redelivered event changes nothing; the first push in a session decides its arm', () => {
    const once = fold([vol('x', 's1', min(1), 'alias'), read('x', 's1', min(2))]);
    const twice = fold([vol('x', 's1', min(1), 'alias'), vol('x', 's1', min(1), 'alias'), read('x', 's1', min(2)), read('x', 's1', min(2)), vol('x', 's1', min(5), 'title')]);
    expect(twice.counters()).toEqual(once.counters());
  });

  it('a purge forgets the sessions first seen before its watermark, and ignores older events after it', () => {
    const s = fold([
      vol('x', 'old', min(1)),
      read('x', 'old', min(2)),
      vol('x', 'new', min(100)),
      { kind: 'purged', before: min(50) },
      // Older than the watermark: purged already, or about to be.
      vol('x', 'late', min(10)),
      read('x', 'new', min(101)),
    ]);
    expect(s.snapshot().page('default', 'x')).toEqual({ sessions: 1, used: 1 });
    expect(s.snapshot().arm('title')).toEqual({ volunteered: 1, used: 1 });
    // A purge with an older watermark never brings anything back nor removes more.
    s.apply({ kind: 'purged', before: min(40) });
    expect(s.snapshot().page('default', 'x')).toEqual({ sessions: 1, used: 1 });
    s.apply({ kind: 'purged', before: min(200) });
    expect(s.snapshot().page('default', 'x')).toBeUndefined();
    expect(s.snapshot().total).toEqual({ volunteered: 0, used: 0 });
  });

  it('learns only from session outcomes: a push or read without a session says nothing', () => {
    const noSession = makeEvent('page.retrieved', { source_id: 'default', slug: 'x', session_id: null }, { key: 'x' });
    expect(learningEventOf(noSession)).toBeNull();
    const pushed = makeEvent('page.volunteered', { source_id: 'default', slug: 'x', confidence: 0.8, match_arm: 'title', rationale: 'r', channel: 'op', session_id: null, turn: null }, { key: 'x' });
    expect(learningEventOf(pushed)).toBeNull();
    const turn = makeEvent('turn.appended', { session_id: 's', turn: 1, role: 'user', text: 'hi', source_id: 'default' }, { key: 's' });
    expect(learningEventOf(turn)).toBeNull();
  });
});
