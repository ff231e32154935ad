import { autostartEnabled, pingServe } from '../serve-client/autostart.js';
import { hostedBrain } from '../serve/hosted-brain.js';
import { packageVersion } from '../package-version.js';
import type { DoctorCheckDef } from './doctor-check.js';

const minutes = (ms: number): string => (ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);

/**
 * `serve`: whether the process that keeps the brain hot runs (version, uptime, pid), and what it
 * means for hooks when it does not: they answer degraded (no per-turn block) until it starts.
 */
export const serveCheck: DoctorCheckDef = {
  name: 'serve',
  async run(ctx) {
    const hosted = hostedBrain(ctx.home);
    // Run inside serve (a forwarded doctor): this process is the one to report.
    const ping = hosted
      ? { role: hosted.role, pid: process.pid, version: packageVersion(), started_at: new Date(Date.now() - process.uptime() * 1000).toISOString() }
      : await pingServe(ctx.home, 2_000);
    if (ping === null) {
      const how = autostartEnabled()
        ? 'the next brain command or hook starts it'
        : 'BRAINSTREAM_AUTOSTART=0: start it with `brainstream serve`';
      return {
        name: 'serve',
        status: 'warn',
        message: `not running: hooks are degraded (they add no per-turn context) until it runs; ${how}`,
        details: { running: false, autostart: autostartEnabled() },
      };
    }
    const uptimeMs = Math.max(0, ctx.now.getTime() - Date.parse(ping.started_at));
    const stale = ping.version !== packageVersion();
    return {
      name: 'serve',
      status: stale ? 'warn' : 'ok',
      message: `running (${ping.role}, pid ${ping.pid}, version ${ping.version}, up ${minutes(uptimeMs)})${stale ? `; this CLI is ${packageVersion()}: the next brain command replaces it` : ''}`,
      details: { running: true, role: ping.role, pid: ping.pid, version: ping.version, uptime_s: Math.round(uptimeMs / 1000) },
    };
  },
};
