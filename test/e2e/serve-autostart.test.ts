// Serve starts itself: a brain command finds no serve, starts one (once, however many commands
// race), and runs through it; after a kill -9 the next command starts it again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pingServe } from '../../src/serve-client/autostart.js';
import { packageVersion } from '../../src/package-version.js';
import { runCliAsync, tempDir } from '../support/cli.js';

const tmp = tempDir('bs-autostart-');
const home = join(tmp.path, 'brain');
const on = { BRAINSTREAM_AUTOSTART: '1' };
const started: number[] = [];

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function untilGone(pid: number): Promise<void> {
  while (isAlive(pid)) await new Promise((r) => setTimeout(r, 50));
}

afterAll(async () => {
  for (const pid of started) if (isAlive(pid)) process.kill(pid, 'SIGTERM');
  for (const pid of started) await untilGone(pid);
  tmp.cleanup();
});

describe('serve autostart', () => {
  it('concurrent first commands start one serve and run through it', async () => {
    const [a, b] = await Promise.all([runCliAsync(['--home', home, 'page', 'list', '--json'], { env: on }), runCliAsync(['--home', home, 'stats', '--json'], { env: on })]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const ping = await pingServe(home);
    expect(ping).toMatchObject({ role: 'serve', version: packageVersion() });
    started.push(ping!.pid);
    const log = readFileSync(join(home, 'run', 'serve.log'), 'utf8');
    expect(log.match(/\[serve\] listening/g)).toHaveLength(1);
  });

  it('after kill -9 of serve, the next command starts it again', async () => {
    const before = (await pingServe(home))!.pid;
    process.kill(before, 'SIGKILL');
    await untilGone(before);
    const r = await runCliAsync(['--home', home, 'page', 'list', '--json'], { env: on });
    expect(r.code, r.stderr).toBe(0);
    const after = await pingServe(home);
    expect(after?.pid).toBeGreaterThan(0);
    expect(after!.pid).not.toBe(before);
    started.push(after!.pid);
  });

  it('BRAINSTREAM_AUTOSTART=0 runs the command without starting serve', async () => {
    const pid = (await pingServe(home))!.pid;
    process.kill(pid, 'SIGTERM');
    await untilGone(pid);
    const r = await runCliAsync(['--home', home, 'page', 'list', '--json'], { env: { BRAINSTREAM_AUTOSTART: '0' } });
    expect(r.code, r.stderr).toBe(0);
    expect(await pingServe(home)).toBeNull();
  });

  it('a hook answers without waiting and leaves serve starting for the next prompt', async () => {
    expect(await pingServe(home)).toBeNull();
    const payload = JSON.stringify({ session_id: 's1', prompt: 'hello', hook_event_name: 'UserPromptSubmit', cwd: tmp.path });
    const r = await runCliAsync(['--home', home, 'hook', 'user-prompt'], { input: payload, env: on });
    expect(r.code, r.stderr).toBe(0);
    let ping = await pingServe(home);
    while (ping === null) {
      await new Promise((done) => setTimeout(done, 100));
      ping = await pingServe(home);
    }
    expect(ping).toMatchObject({ role: 'serve', version: packageVersion() });
    started.push(ping.pid);
  });
});
