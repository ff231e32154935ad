import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

// The service commands drive the user's service manager: here a stand-in `systemctl` first on
// the PATH records what it is asked and answers as systemd would, so the process boundary (the
// unit file on disk, the manager's command lines, exit codes) is what is checked.
const tmp = tempDir('bs-service-');
afterAll(() => tmp.cleanup());
const userHome = join(tmp.path, 'user');
const home = join(tmp.path, 'brain');
const bin = join(tmp.path, 'bin');
const calls = join(tmp.path, 'systemctl.log');
mkdirSync(userHome);
mkdirSync(bin);
writeFileSync(
  join(bin, 'systemctl'),
  `#!/bin/bash
echo "$*" >> ${JSON.stringify(calls)}
if [ "$2" = "$FAIL_ON" ]; then echo "Failed to connect to bus: No medium found" >&2; exit 1; fi
if [ "$2" = is-active ]; then echo active; fi
exit 0
`,
);
chmodSync(join(bin, 'systemctl'), 0o755);

const service = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(['--home', home, 'service', ...args], { env: { HOME: userHome, XDG_CONFIG_HOME: '', PATH: `${bin}:${process.env.PATH}`, ...env } });
const called = (): string[] => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : []);

describe.skipIf(process.platform !== 'linux')('brainstream service (systemd user unit)', () => {
  const name = /^brainstream-[0-9a-f]{8}$/;
  let unitFile = '';

  it('install writes an owner-only unit that runs serve of this home through its launcher, then enables and restarts it', () => {
    const r = service(['install', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { name: string; manager: string; file: string };
    expect(out.name).toMatch(name);
    expect(out).toMatchObject({ manager: 'systemd', file: join(userHome, '.config', 'systemd', 'user', `${out.name}.service`) });
    unitFile = out.file;
    expect(statSync(unitFile).mode & 0o777).toBe(0o600);
    const unit = readFileSync(unitFile, 'utf8');
    expect(unit).toMatch(new RegExp(`\\nExecStart=/\\S*bash ${join(home, 'bin', 'brainstream-launch').replace(/[.]/g, '\\.')} serve --home ${home.replace(/[.]/g, '\\.')}\\n`));
    expect(unit).toContain('\nRestart=always\n');
    expect(statSync(join(home, 'bin', 'brainstream-launch')).mode & 0o777).toBe(0o700);
    expect(called()).toEqual(['--user daemon-reload', `--user enable ${out.name}.service`, `--user restart ${out.name}.service`]);
  });

  it('status reports the unit, the manager state and whether serve answers', () => {
    const r = service(['status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ manager: 'systemd', file: unitFile, installed: true, state: 'active', serve: { running: false } });
    const text = service(['status']);
    expect(text.stdout).toMatch(/^service: installed brainstream-[0-9a-f]{8} \(systemd user unit .*\.service\), active\nserve: not running\n$/);
  });

  it('a remote caller can neither install nor uninstall', () => {
    for (const sub of ['install', 'uninstall']) {
      const r = runCli(['--home', home, '--as', 'remote', 'service', sub], { env: { HOME: userHome, PATH: `${bin}:${process.env.PATH}` } });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`brainstream: owner_only: service ${sub} is an owner-only command; ask the user to run it on the brain host\n`);
    }
    expect(existsSync(unitFile)).toBe(true);
  });

  it('uninstall disables and removes the unit; a second uninstall says it is not installed', () => {
    writeFileSync(calls, '');
    const r = service(['uninstall']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^service: removed brainstream-[0-9a-f]{8} \(systemd user unit /);
    expect(existsSync(unitFile)).toBe(false);
    expect(called()).toEqual([expect.stringMatching(/^--user disable --now brainstream-[0-9a-f]{8}\.service$/), '--user daemon-reload']);
    expect(service(['uninstall']).stdout).toBe(`service: not installed (no ${unitFile})\n`);
    expect(service(['status']).stdout).toBe('service: not installed (install it with: brainstream service install)\nserve: not running\n');
  });

  it('a manager that cannot be reached is a one-line error naming the step, with the unit left for a later start', () => {
    const r = service(['install'], { FAIL_ON: 'enable' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^brainstream: service_manager_failed: wrote \S+\.service, but `systemctl --user enable brainstream-[0-9a-f]{8}\.service` failed: Failed to connect to bus: No medium found\n$/);
    expect(existsSync(unitFile)).toBe(true);
  });
});
