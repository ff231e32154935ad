import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * What `brainstream service install` writes: a systemd user unit (Linux) or a launchd agent
 * (macOS) that keeps `serve` of one home running and restarts it when it exits. Pure: paths and
 * file texts from their inputs; the service manager is driven elsewhere.
 */

export type ServiceManagerKind = 'systemd' | 'launchd';

export interface ServiceSpec {
  home: string;
  /** The program and arguments that start serve of `home`. */
  argv: readonly string[];
}

/**
 * The service's name. The default home gets the plain name; any other home gets a suffix from
 * its path, so two brains of one user can each have their own service.
 */
export function serviceName(home: string, defaultHome = join(homedir(), '.brainstream')): string {
  if (home === defaultHome) return 'brainstream';
  return `brainstream-${createHash('sha256').update(home).digest('hex').slice(0, 8)}`;
}

/** Where the manager looks for the file. */
export function serviceFilePath(kind: ServiceManagerKind, name: string, env: NodeJS.ProcessEnv = process.env, userHome = homedir()): string {
  if (kind === 'launchd') return join(userHome, 'Library', 'LaunchAgents', `${launchdLabel(name)}.plist`);
  const config = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(userHome, '.config');
  return join(config, 'systemd', 'user', `${name}.service`);
}

export const systemdUnitName = (name: string): string => `${name}.service`;
export const launchdLabel = (name: string): string => `dev.brainstream.${name}`;

/** systemd quoting for one ExecStart word: double quotes, with backslash, quote, `$` and `%` escaped. */
const systemdWord = (word: string): string =>
  /^[A-Za-z0-9_\-./:=@+,]+$/.test(word) ? word : `"${word.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '$$$$').replace(/%/g, '%%')}"`;

export function systemdUnit(spec: ServiceSpec): string {
  return [
    '# Written by `brainstream service install`; `brainstream service uninstall` removes it.',
    '[Unit]',
    `Description=brainstream serve for ${spec.home.replace(/%/g, '%%')}`,
    '',
    '[Service]',
    `ExecStart=${spec.argv.map(systemdWord).join(' ')}`,
    // Restarted whatever the reason it stopped (a crash, or a CLI of a newer version replacing it).
    'Restart=always',
    'RestartSec=2',
    // Everything serve creates stays readable by this user only.
    'UMask=0077',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

const xml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function launchdPlist(spec: ServiceSpec, label: string): string {
  const logs = join(spec.home, 'run', 'service.log');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `brainstream service install`; `brainstream service uninstall` removes it. -->',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key><string>${xml(label)}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...spec.argv.map((a) => `    <string>${xml(a)}</string>`),
    '  </array>',
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key><true/>',
    '  <key>Umask</key><integer>63</integer>',
    `  <key>StandardErrorPath</key><string>${xml(logs)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
