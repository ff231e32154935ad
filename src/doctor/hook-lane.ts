import { readHeartbeat, type HeartbeatEntry } from '../hooks/heartbeat.js';
import { readInstallRecords, readSettings, type InstallRecord } from '../hooks/hook-install.js';
import { ourCommands } from '../hooks/hook-settings.js';
import { ACTIVITY_WINDOW_DAYS, channelActivity } from './channel-activity.js';
import type { DoctorCheck, DoctorCheckDef, DoctorContext } from './doctor-check.js';

const HOOK_CHANNELS = ['claude-code', 'codex', 'opencode'];

export interface HookLaneFinding {
  kind: 'not_registered_in_settings' | 'installed_never_registered' | 'registered_but_quiet';
  harness: string;
  settings_path: string;
  message: string;
}

function stillInSettings(r: InstallRecord): boolean {
  try {
    return Object.keys(ourCommands(readSettings(r.settings_path))).length > 0;
  } catch {
    return false;
  }
}

/** The most frequent degraded reason, for the registered-but-quiet advice. */
function topReason(entries: readonly HeartbeatEntry[]): string | null {
  const counts = new Map<string, number>();
  for (const e of entries) if (e.outcome !== 'ok' && e.reason) counts.set(e.reason, (counts.get(e.reason) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * Hook lane health from bootstrap's records, the harness settings and the hook heartbeat:
 * installed but the harness never ran it (session not restarted), or running but injecting nothing.
 */
export function hookLaneFindings(records: readonly InstallRecord[], inSettings: (r: InstallRecord) => boolean, beats: readonly HeartbeatEntry[], hookEvents7d: number, now: Date): HookLaneFinding[] {
  const findings: HookLaneFinding[] = [];
  const since = now.getTime() - ACTIVITY_WINDOW_DAYS * 86_400_000;
  for (const r of records) {
    const base = { harness: r.harness, settings_path: r.settings_path };
    if (!inSettings(r)) {
      findings.push({ ...base, kind: 'not_registered_in_settings', message: `${r.harness} hooks are no longer in ${r.settings_path} — run brainstream bootstrap --harness ${r.harness}` });
      continue;
    }
    const after = beats.filter((b) => Date.parse(b.ts) >= Date.parse(r.installed_at));
    if (after.length === 0) {
      findings.push({ ...base, kind: 'installed_never_registered', message: `${r.harness} hook installed in ${r.settings_path} but never registered: no hook has run since ${r.installed_at} — restart the harness session (hooks snapshot at session start)` });
      continue;
    }
    const prompts = after.filter((b) => b.event === 'user-prompt' && Date.parse(b.ts) > since);
    if (prompts.length > 0 && hookEvents7d === 0) {
      const reason = topReason(prompts);
      const advice = reason === 'no_serve' || reason === 'ipc_unavailable' ? ' — start brainstream serve (the hook lane needs it)' : reason ? ` (most common reason: ${reason})` : ' — nothing matched a page yet';
      findings.push({ ...base, kind: 'registered_but_quiet', message: `${r.harness} hook runs (${prompts.length} prompts in 7 days) but delivered no pages${advice}` });
    }
  }
  return findings;
}

export const hookLaneCheck: DoctorCheckDef = {
  name: 'hook_lane',
  async run(ctx: DoctorContext): Promise<DoctorCheck> {
    const records = readInstallRecords(ctx.home);
    if (records.length === 0) return { name: 'hook_lane', status: 'ok', message: 'no harness hooks installed (brainstream bootstrap registers them)', details: { installs: [], findings: [] } };
    let hookEvents = 0;
    try {
      const activity = await channelActivity(ctx.db, ctx.sources, ctx.now);
      hookEvents = HOOK_CHANNELS.reduce((n, ch) => n + (activity[ch]?.count ?? 0), 0);
    } catch {
      hookEvents = 0;
    }
    const findings = hookLaneFindings(records, stillInSettings, readHeartbeat(ctx.home, 1000), hookEvents, ctx.now);
    const message =
      findings.length === 0
        ? `hooks registered and delivering: ${records.map((r) => r.harness).join(', ')}`
        : `${findings.length} finding(s): ${findings.map((f) => f.message).join('; ')}`;
    return { name: 'hook_lane', status: findings.length === 0 ? 'ok' : 'warn', message, details: { installs: records, findings } };
  },
};
