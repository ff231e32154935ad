import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { importPages, runHook } from './hook-serve-support.js';

const tmp = tempDir('bs-doctor-');
const home = join(tmp.path, 'brain');
const env = { HOME: join(tmp.path, 'user') };

interface Check {
  name: string;
  status: string;
  message: string;
  details?: Record<string, unknown>;
}
const checks = (): Check[] => (JSON.parse(runCli(['--home', home, 'doctor', '--json'], { env }).stdout) as { checks: Check[] }).checks;

beforeAll(() => {
  importPages(home, join(tmp.path, 'pages'), { 'people/alice-example': '---\ntitle: Alice Example\n---\nAlice.\n' });
});
afterAll(() => tmp.cleanup());

describe('brainstream doctor', () => {
  it('reports no activity with the restart guidance, one line per check', () => {
    const r = runCli(['--home', home, 'doctor'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContain(
      'ok  volunteer_channels: no push-context activity in 7 days — if a hook adapter is installed, confirm its registration landed and the harness session was RESTARTED (hooks snapshot at session start), and that brainstream serve is running (the hook lane needs it on every engine)',
    );
    expect(lines).toContain('ok  hook_lane: no harness hooks installed (brainstream bootstrap registers them)');
    const vc = checks().find((c) => c.name === 'volunteer_channels')!;
    expect(vc.details).toMatchObject({ window_days: 7, channels: { op: { count: 0, last_fired: null } } });
  });

  it('counts channels that fired', () => {
    runCli(['--home', home, 'call', 'volunteer_context', '--params', JSON.stringify({ window: 'user: hi Alice Example' })], { env });
    const vc = checks().find((c) => c.name === 'volunteer_channels')!;
    expect(vc.message).toBe('push-context channels active (7d): op=1');
    expect((vc.details!.channels as Record<string, { count: number; last_fired: string }>).op.last_fired).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('finds a hook that was installed but never ran, then one that runs without serve', () => {
    expect(runCli(['--home', home, 'bootstrap'], { env }).code).toBe(0);
    let lane = checks().find((c) => c.name === 'hook_lane')!;
    expect(lane.status).toBe('warn');
    expect(lane.message).toMatch(/installed in .*settings\.json but never registered: .*restart the harness session/);
    const hook = runHook(home, 'user-prompt', { prompt: 'hi Alice Example' }, env);
    expect(hook.stderr).toBe('');
    lane = checks().find((c) => c.name === 'hook_lane')!;
    // Without serve the prompt is answered from the page snapshot (the cold path).
    expect(lane.message).toBe('hooks registered and delivering: claude-code');
    expect(runCli(['--home', home, 'doctor'], { env }).code).toBe(0);
  });
});
