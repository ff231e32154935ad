import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { BrainstreamError } from '../errors.js';
import {
  launchdLabel,
  launchdPlist,
  serviceFilePath,
  serviceName,
  systemdUnit,
  systemdUnitName,
  type ServiceManagerKind,
  type ServiceSpec,
} from './service-files.js';

/** The user's service manager on this platform; `service_unsupported` elsewhere. */
export function serviceManagerKind(platform: NodeJS.Platform = process.platform): ServiceManagerKind {
  if (platform === 'linux') return 'systemd';
  if (platform === 'darwin') return 'launchd';
  throw new BrainstreamError('service_unsupported', `no user service manager is supported on ${platform}; run \`brainstream serve\` from your own process supervisor`);
}

interface Ran {
  ok: boolean;
  stdout: string;
  /** What to show when it failed: the first line of its error output, or why it did not start. */
  problem: string;
}

function run(command: string, args: readonly string[]): Ran {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  const problem = r.error ? r.error.message : (r.stderr || r.stdout).trim().split('\n')[0] ?? `exit ${r.status}`;
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? '', problem };
}

const guiDomain = (): string => `gui/${process.getuid?.() ?? 0}`;

/** The service of one home, as the manager of this platform knows it. */
export interface ServiceTarget {
  kind: ServiceManagerKind;
  name: string;
  /** The unit file or agent plist. */
  file: string;
}

export function serviceTarget(home: string, kind: ServiceManagerKind = serviceManagerKind()): ServiceTarget {
  const name = serviceName(home);
  return { kind, name, file: serviceFilePath(kind, name) };
}

function writeOwnerOnly(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Runs the manager's steps in order; the first failure stops and is reported with what was already done. */
function steps(target: ServiceTarget, done: string, list: readonly (readonly string[])[]): void {
  for (const [command, ...args] of list) {
    const r = run(command!, args);
    if (!r.ok) {
      throw new BrainstreamError(
        'service_manager_failed',
        `${done}, but \`${[command, ...args].join(' ')}\` failed: ${r.problem}`,
        { file: target.file, command: [command, ...args] },
      );
    }
  }
}

/**
 * Writes the unit (or agent) and has the manager start it now and at every login. Running it
 * again rewrites the file and restarts serve, so it also repairs and upgrades an install.
 */
export function installService(spec: ServiceSpec, target: ServiceTarget): void {
  if (target.kind === 'systemd') {
    writeOwnerOnly(target.file, systemdUnit(spec));
    const unit = systemdUnitName(target.name);
    steps(target, `wrote ${target.file}`, [
      ['systemctl', '--user', 'daemon-reload'],
      ['systemctl', '--user', 'enable', unit],
      ['systemctl', '--user', 'restart', unit],
    ]);
    return;
  }
  writeOwnerOnly(target.file, launchdPlist(spec, launchdLabel(target.name)));
  // A loaded agent keeps its old definition until it is booted out; not loaded is fine.
  run('launchctl', ['bootout', `${guiDomain()}/${launchdLabel(target.name)}`]);
  steps(target, `wrote ${target.file}`, [['launchctl', 'bootstrap', guiDomain(), target.file]]);
}

/** Stops and removes the service; returns whether there was one. The manager being unreachable does not keep the file. */
export function uninstallService(target: ServiceTarget): boolean {
  const installed = existsSync(target.file);
  if (target.kind === 'systemd') {
    run('systemctl', ['--user', 'disable', '--now', systemdUnitName(target.name)]);
    rmSync(target.file, { force: true });
    run('systemctl', ['--user', 'daemon-reload']);
  } else {
    run('launchctl', ['bootout', `${guiDomain()}/${launchdLabel(target.name)}`]);
    rmSync(target.file, { force: true });
  }
  return installed;
}

/** What the manager says about the service: systemd's active state, launchd's loaded or not; null when it cannot be asked. */
export function managerState(target: ServiceTarget): string | null {
  if (target.kind === 'systemd') {
    const r = run('systemctl', ['--user', 'is-active', systemdUnitName(target.name)]);
    // is-active exits non-zero for every state but active, and still prints the state.
    const state = r.stdout.trim();
    return /^[a-z-]+$/.test(state) ? state : null;
  }
  const r = run('launchctl', ['print', `${guiDomain()}/${launchdLabel(target.name)}`]);
  return r.ok ? 'loaded' : r.problem.includes('ENOENT') ? null : 'not loaded';
}
