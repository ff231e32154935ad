import { describe, expect, it } from 'vitest';
import { decidePressureNotice } from '../../../src/core-memory/pressure-decision.js';
import {
  pressureNoticeText,
  resolveCompactionPoint,
  resolveContextWindow,
  shouldFirePressureNotice,
  type PressureQuestion,
} from '../../../src/core-memory/pressure-notice.js';
import {
  emptyPressureState,
  hasFiredInSegment,
  markFired,
  parsePressureState,
  pressureSessionKey,
  pruneIdleSessions,
  startNewSegment,
} from '../../../src/core-memory/pressure-state.js';
import { usageFromTranscript } from '../../../src/core-memory/transcript-usage.js';

const base: PressureQuestion = {
  enabled: true,
  rememberCallable: true,
  firedInSegment: false,
  warnRatio: 0.8,
  configuredWindow: null,
  usage: { used_tokens: 0, last_turn_tokens: 0, window_tokens: 200_000, compaction_point_tokens: 190_000 },
};
const fires = (used: number, last: number, over: Partial<PressureQuestion> = {}) =>
  shouldFirePressureNotice({ ...base, ...over, usage: { ...base.usage, used_tokens: used, last_turn_tokens: last } });

describe('save-before-compaction decision (window 200 000, compaction 190 000, ratio 0.80)', () => {
  it('used 160 000, last 2 000 → fires', () => expect(fires(160_000, 2_000)).toBe(true));
  it('100 000 / 2 000 → no', () => expect(fires(100_000, 2_000)).toBe(false));
  it('140 000 / 30 000 → fires (140 000 + 60 000 ≥ 190 000)', () => expect(fires(140_000, 30_000)).toBe(true));
  it('a second prompt in the same segment → no', () => expect(fires(160_000, 2_000, { firedInSegment: true })).toBe(false));
  it('remember_callable false → no', () => expect(fires(160_000, 2_000, { rememberCallable: false })).toBe(false));
  it('disabled → no', () => expect(fires(199_000, 2_000, { enabled: false })).toBe(false));
  it('context_window 100 000 with used 85 000 → fires', () => {
    expect(fires(85_000, 0, { configuredWindow: 100_000, usage: { used_tokens: 0, last_turn_tokens: 0 } })).toBe(true);
  });
  it('the boundaries are inclusive', () => {
    expect(fires(159_999, 0)).toBe(false);
    expect(fires(160_000, 0)).toBe(true);
    expect(fires(150_000, 20_000)).toBe(true);
    expect(fires(150_000, 19_999)).toBe(false);
  });
});

describe('window and compaction point', () => {
  it('window: configured, else reported, else 200 000', () => {
    expect(resolveContextWindow(100_000, 500_000)).toBe(100_000);
    expect(resolveContextWindow(null, 500_000)).toBe(500_000);
    expect(resolveContextWindow(null, undefined)).toBe(200_000);
    expect(resolveContextWindow(null, 0)).toBe(200_000);
  });

  it('compaction point: reported, else the window', () => {
    expect(resolveCompactionPoint(150_000, 200_000)).toBe(150_000);
    expect(resolveCompactionPoint(null, 100_000)).toBe(100_000);
  });
});

describe('notice text', () => {
  it('states the percentage and the capture policy', () => {
    expect(pressureNoticeText(160_000, 200_000, { visibility: 'world', ttl: null, exclude: 'secrets, credentials, access tokens' })).toBe(
      'Context is ~80% full; compaction is near. Save anything that must survive it now: one remember call with items (up to 20 facts, each with provenance). Capture policy: visibility world, ttl none; never save secrets, credentials, access tokens.',
    );
    const priv = pressureNoticeText(123_456, 200_000, { visibility: 'private', ttl: '30d', exclude: 'passwords' });
    expect(priv).toContain('~62% full');
    expect(priv).toContain('Capture policy: visibility private, ttl 30d; never save passwords.');
    expect(priv).not.toContain('world');
  });
});

describe('segments', () => {
  const now = new Date('2026-04-07T12:00:00Z');
  const settings = { enabled: true, warnRatio: 0.8, contextWindow: null, policy: { visibility: 'world' as const, ttl: null, exclude: 'secrets' } };
  const usage = (used: number, last = 2_000) => ({ used_tokens: used, last_turn_tokens: last, window_tokens: 200_000, compaction_point_tokens: 190_000 });

  it('fires once per segment and again after compaction (spec walk-through)', () => {
    let state = emptyPressureState();
    const step = (used: number) => {
      const d = decidePressureNotice({ settings, rememberCallable: true, usage: usage(used), sessionId: 's1', state, now });
      state = d.state;
      return d;
    };
    const first = step(160_000);
    expect(first.fire).toBe(true);
    expect(first.text).toMatch(/^Context is ~80% full;/);
    expect(step(170_000).fire).toBe(false);
    state = startNewSegment(state, 's1', now);
    expect(step(40_000).fire).toBe(false);
    expect(step(161_000).fire).toBe(true);
    expect(state.sessions.s1.segment).toBe(2);
  });

  it('unknown usage never fires', () => {
    const d = decidePressureNotice({ settings, rememberCallable: true, usage: null, sessionId: null, state: emptyPressureState(), now });
    expect(d).toEqual({ fire: false, text: null, state: emptyPressureState() });
  });

  it('keys sessions by id, absent → anonymous', () => {
    expect(pressureSessionKey(undefined)).toBe('anonymous');
    expect(pressureSessionKey('  ')).toBe('anonymous');
    expect(pressureSessionKey('abc')).toBe('abc');
    expect(pressureSessionKey('x'.repeat(300))).toHaveLength(256);
    const s = markFired(emptyPressureState(), null, now);
    expect(hasFiredInSegment(s, undefined)).toBe(true);
    expect(hasFiredInSegment(s, 'other')).toBe(false);
  });

  it('drops sessions idle for more than 7 days', () => {
    const old = markFired(emptyPressureState(), 'old', new Date('2026-03-30T11:59:59Z'));
    const recent = markFired(old, 'recent', new Date('2026-03-31T12:00:00Z'));
    expect(Object.keys(pruneIdleSessions(recent, now).sessions)).toEqual(['recent']);
  });

  it('reads stored state leniently', () => {
    expect(parsePressureState(null)).toEqual(emptyPressureState());
    expect(parsePressureState({ sessions: { a: { segment: 2, fired: true, last_seen: 'x' }, b: { segment: 'x' } } })).toEqual({
      version: 1,
      sessions: { a: { segment: 2, fired: true, last_seen: 'x' } },
    });
  });
});

describe('usage from the transcript', () => {
  const entry = (input: number, creation = 0, read = 0) => ({
    type: 'assistant',
    message: { role: 'assistant', usage: { input_tokens: input, cache_creation_input_tokens: creation, cache_read_input_tokens: read, output_tokens: 99 } },
  });

  it('used = input + cache creation + cache read of the last assistant entry; last_turn = growth', () => {
    expect(usageFromTranscript([entry(100, 1000, 50_000), { type: 'user', message: { role: 'user' } }, entry(200, 2000, 60_000)])).toEqual({
      used_tokens: 62_200,
      last_turn_tokens: 11_100,
    });
  });

  it('a single reading has no growth; a shrink counts as 0; no reading → null', () => {
    expect(usageFromTranscript([entry(10)])).toEqual({ used_tokens: 10, last_turn_tokens: 0 });
    expect(usageFromTranscript([entry(500), entry(100)])).toEqual({ used_tokens: 100, last_turn_tokens: 0 });
    expect(usageFromTranscript([{ type: 'user' }, 'garbage', null])).toBeNull();
  });
});
