import { describe, expect, it } from 'vitest';
import { heartbeatSummary, volunteerChannelsResult } from '../../../src/doctor/volunteer-channels.js';
import { hookLaneFindings } from '../../../src/doctor/hook-lane.js';
import type { HeartbeatEntry } from '../../../src/hooks/heartbeat.js';

const now = new Date('2026-11-29T12:00:00Z');
const zero = { count: 0, last_fired: null };
const channels = (over: Record<string, { count: number; last_fired: string | null }>) => ({
  op: zero, watch: zero, reflex: zero, 'claude-code': zero, codex: zero, opencode: zero, ...over,
});
const beat = (outcome: HeartbeatEntry['outcome'], ts = '2026-11-29T10:00:00Z', event = 'user-prompt'): HeartbeatEntry => ({ ts, event, outcome, duration_ms: 20 });

describe('volunteer_channels', () => {
  it('lists active channels in code-unit order', () => {
    const r = volunteerChannelsResult(channels({ watch: { count: 2, last_fired: 'x' }, 'claude-code': { count: 5, last_fired: 'y' } }), null);
    expect(r).toMatchObject({ name: 'volunteer_channels', status: 'ok', message: 'push-context channels active (7d): claude-code=5, watch=2' });
    expect(r.details).toMatchObject({ window_days: 7 });
    expect(r.details).not.toHaveProperty('hook_heartbeat');
  });

  it('cautions when most user-prompt heartbeats were degraded', () => {
    const entries = [beat('ok'), beat('degraded'), beat('degraded'), beat('error'), beat('ok'), beat('degraded'), beat('ok', '2026-11-01T00:00:00Z'), beat('degraded', '2026-11-29T10:00:00Z', 'session-start')];
    const summary = heartbeatSummary(entries, now);
    expect(summary).toEqual({ user_prompt_ok: 2, user_prompt_degraded: 4 });
    const r = volunteerChannelsResult(channels({ 'claude-code': { count: 3, last_fired: 'y' } }), summary);
    expect(r.message).toBe(
      'push-context channels active (7d): claude-code=3 — CAUTION: the hook heartbeat shows 4/6 user-prompt events degraded this week, so server-side counts may overstate what was actually injected',
    );
    expect(r.details).toMatchObject({ hook_heartbeat: { user_prompt_ok: 2, user_prompt_degraded: 4 } });
    expect(heartbeatSummary(entries.slice(0, 4), now)).toBeNull();
  });

  it('guides when nothing fired', () => {
    expect(volunteerChannelsResult(channels({}), null).message).toMatch(/^no push-context activity in 7 days — if a hook adapter is installed/);
  });
});

describe('hook lane findings', () => {
  const record = { harness: 'claude-code' as const, settings_path: '/s.json', installed_at: '2026-11-28T00:00:00Z' };
  it('installed but never registered: no hook ran since the install', () => {
    const f = hookLaneFindings([record], () => true, [beat('ok', '2026-11-27T00:00:00Z')], 0, now);
    expect(f.map((x) => x.kind)).toEqual(['installed_never_registered']);
  });
  it('registered but quiet: prompts ran, nothing delivered', () => {
    const f = hookLaneFindings([record], () => true, [beat('degraded'), { ...beat('degraded'), reason: 'no_serve' }], 0, now);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ kind: 'registered_but_quiet' });
    expect(f[0].message).toMatch(/start brainstream serve/);
    expect(hookLaneFindings([record], () => true, [beat('ok')], 4, now)).toEqual([]);
  });
  it('removed from the settings file', () => {
    expect(hookLaneFindings([record], () => false, [], 0, now).map((x) => x.kind)).toEqual(['not_registered_in_settings']);
  });
});
