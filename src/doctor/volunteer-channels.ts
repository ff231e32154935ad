import { cmp } from '../code-unit-order.js';
import { readHeartbeat, type HeartbeatEntry } from '../hooks/heartbeat.js';
import { ACTIVITY_WINDOW_DAYS, channelActivity, isMissingTable, type ChannelActivity } from './channel-activity.js';
import type { DoctorCheck, DoctorCheckDef, DoctorContext } from './doctor-check.js';

const NO_ACTIVITY =
  'no push-context activity in 7 days — if a hook adapter is installed, confirm its registration landed and the harness session was RESTARTED (hooks snapshot at session start), and that brainstream serve is running (the hook lane needs it on every engine)';
const MISSING_TABLE =
  'volunteer-events table not available (brain predates the feedback-log migration) — per-channel push visibility inactive';

export interface HookHeartbeatSummary {
  user_prompt_ok: number;
  user_prompt_degraded: number;
}

/** `user-prompt` heartbeats of the last 7 days among the newest 200 entries; null under 5. */
export function heartbeatSummary(entries: readonly HeartbeatEntry[], now: Date): HookHeartbeatSummary | null {
  const since = now.getTime() - ACTIVITY_WINDOW_DAYS * 86_400_000;
  const recent = entries.slice(-200).filter((e) => e.event === 'user-prompt' && Date.parse(e.ts) > since);
  if (recent.length < 5) return null;
  const degraded = recent.filter((e) => e.outcome !== 'ok').length;
  return { user_prompt_ok: recent.length - degraded, user_prompt_degraded: degraded };
}

/** The message and details of doctor check `volunteer_channels` from its inputs. */
export function volunteerChannelsResult(channels: Record<string, ChannelActivity>, beat: HookHeartbeatSummary | null): DoctorCheck {
  const active = Object.entries(channels)
    .filter(([, a]) => a.count > 0)
    .sort(([a], [b]) => cmp(a, b));
  const details = { window_days: ACTIVITY_WINDOW_DAYS, channels, ...(beat ? { hook_heartbeat: beat } : {}) };
  if (active.length === 0) return { name: 'volunteer_channels', status: 'ok', message: NO_ACTIVITY, details };
  let message = `push-context channels active (7d): ${active.map(([ch, a]) => `${ch}=${a.count}`).join(', ')}`;
  if (beat) {
    const n = beat.user_prompt_ok + beat.user_prompt_degraded;
    if (beat.user_prompt_degraded * 2 > n) {
      message += ` — CAUTION: the hook heartbeat shows ${beat.user_prompt_degraded}/${n} user-prompt events degraded this week, so server-side counts may overstate what was actually injected`;
    }
  }
  return { name: 'volunteer_channels', status: 'ok', message, details };
}

/** Which push channels fire (info only: always `ok`). */
export const volunteerChannelsCheck: DoctorCheckDef = {
  name: 'volunteer_channels',
  async run(ctx: DoctorContext): Promise<DoctorCheck> {
    let channels: Record<string, ChannelActivity>;
    try {
      channels = await channelActivity(ctx.db, ctx.sources, ctx.now);
    } catch (err) {
      const message = isMissingTable(err)
        ? MISSING_TABLE
        : `volunteer_channels query failed (info-only check; may or may not be transient): ${err instanceof Error ? err.message : String(err)}`;
      return { name: 'volunteer_channels', status: 'ok', message, details: { window_days: ACTIVITY_WINDOW_DAYS, channels: {} } };
    }
    return volunteerChannelsResult(channels, heartbeatSummary(readHeartbeat(ctx.home, 200), ctx.now));
  },
};
