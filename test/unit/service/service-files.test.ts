import { describe, expect, it } from 'vitest';
import { launchdPlist, serviceFilePath, serviceName, systemdUnit } from '../../../src/service/service-files.js';
import { serviceManagerKind } from '../../../src/service/service-manager.js';

describe('service files', () => {
  it('names the default home plainly and any other home by a hash of its path', () => {
    expect(serviceName('/u/.brainstream', '/u/.brainstream')).toBe('brainstream');
    const other = serviceName('/u/work-brain', '/u/.brainstream');
    expect(other).toMatch(/^brainstream-[0-9a-f]{8}$/);
    expect(serviceName('/u/work-brain', '/u/.brainstream')).toBe(other);
    expect(serviceName('/u/other-brain', '/u/.brainstream')).not.toBe(other);
  });

  it('puts a systemd unit under XDG_CONFIG_HOME when it is absolute, else ~/.config; a launchd agent under ~/Library/LaunchAgents', () => {
    expect(serviceFilePath('systemd', 'brainstream', {}, '/u')).toBe('/u/.config/systemd/user/brainstream.service');
    expect(serviceFilePath('systemd', 'brainstream', { XDG_CONFIG_HOME: '/cfg' }, '/u')).toBe('/cfg/systemd/user/brainstream.service');
    expect(serviceFilePath('systemd', 'brainstream', { XDG_CONFIG_HOME: 'relative' }, '/u')).toBe('/u/.config/systemd/user/brainstream.service');
    expect(serviceFilePath('launchd', 'brainstream', {}, '/u')).toBe('/u/Library/LaunchAgents/dev.brainstream.brainstream.plist');
  });

  it('writes a unit that restarts serve whatever stopped it, owner-only, with odd paths quoted', () => {
    const unit = systemdUnit({ home: '/u/my 100% brain', argv: ['/bin/bash', '/u/my 100% brain/bin/brainstream-launch', 'serve', '--home', '/u/my 100% brain'] });
    expect(unit).toContain('Description=brainstream serve for /u/my 100%% brain\n');
    expect(unit).toContain('ExecStart=/bin/bash "/u/my 100%% brain/bin/brainstream-launch" serve --home "/u/my 100%% brain"\n');
    expect(unit).toContain('\nRestart=always\n');
    expect(unit).toContain('\nUMask=0077\n');
    expect(unit).toContain('\nWantedBy=default.target\n');
    expect(systemdUnit({ home: '/h', argv: ['/bin/bash', '/h/$x"y'] })).toContain('ExecStart=/bin/bash "/h/$$x\\"y"\n');
  });

  it('writes a launchd agent that is kept alive and escapes XML', () => {
    const plist = launchdPlist({ home: '/u/a&b', argv: ['/bin/bash', '/u/a&b/bin/brainstream-launch', 'serve', '--home', '/u/a&b'] }, 'dev.brainstream.brainstream');
    expect(plist).toContain('<key>Label</key><string>dev.brainstream.brainstream</string>');
    expect(plist).toContain('    <string>/u/a&amp;b/bin/brainstream-launch</string>\n');
    expect(plist).toContain('<key>KeepAlive</key><true/>');
    expect(plist).toContain('<key>Umask</key><integer>63</integer>');
    expect(plist).not.toMatch(/a&b/);
  });

  it('knows systemd on Linux and launchd on macOS, and refuses elsewhere with a clear code', () => {
    expect(serviceManagerKind('linux')).toBe('systemd');
    expect(serviceManagerKind('darwin')).toBe('launchd');
    expect(() => serviceManagerKind('win32')).toThrow(expect.objectContaining({ code: 'service_unsupported' }));
  });
});
