import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = tempDir('bs-bootstrap-');
const home = join(tmp.path, 'brain');
const userHome = join(tmp.path, 'user');
const env = { HOME: userHome, CODEX_HOME: join(userHome, '.codex') };
const settingsPath = join(userHome, '.claude', 'settings.json');
const read = (p: string): Record<string, unknown> => JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;

afterAll(() => tmp.cleanup());

const existing = {
  permissions: { allow: ['Bash(ls:*)'] },
  hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo other-hook' }] }], Stop: [{ hooks: [{ type: 'command', command: 'notify.sh' }] }] },
};

describe('brainstream bootstrap', () => {
  it('registers both hooks beside the other hooks, idempotently', () => {
    mkdirSync(join(userHome, '.claude'), { recursive: true });
    writeFileSync(settingsPath, JSON.stringify(existing, null, 2), { mode: 0o644 });
    const first = runCli(['--home', home, 'bootstrap'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`claude-code hooks installed in ${settingsPath}`);
    const after = read(settingsPath) as { permissions: unknown; hooks: Record<string, { hooks: { type: string; command: string }[] }[]> };
    expect(after.permissions).toEqual(existing.permissions);
    expect(after.hooks.Stop).toEqual(existing.hooks.Stop);
    expect(after.hooks.UserPromptSubmit[0]).toEqual(existing.hooks.UserPromptSubmit[0]);
    const ours = after.hooks.UserPromptSubmit[1].hooks[0];
    expect(ours.type).toBe('command');
    expect(ours.command).toMatch(/brainstream-launch --fast --home .* hook user-prompt --harness claude-code$/);
    // Nothing an upgrade moves: no Node binary, no install path.
    expect(ours.command).not.toContain(process.execPath);
    expect(ours.command).not.toMatch(/main\.js|dist\//);
    expect(after.hooks.PostToolUse[0].hooks[0].command).toMatch(/hook post-tool --harness claude-code$/);
    const mcp = read(join(userHome, '.claude.json')) as { mcpServers: Record<string, { type: string; command: string; args: string[] }> };
    expect(mcp.mcpServers.brainstream).toMatchObject({ type: 'stdio', args: [join(home, 'bin', 'brainstream-launch'), '--home', home, 'mcp'] });
    expect(after.hooks.SessionStart[0].hooks[0].command).toMatch(/hook session-start --harness claude-code$/);
    expect(statSync(settingsPath).mode & 0o777).toBe(0o644);

    const again = runCli(['--home', home, 'bootstrap', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ harness: 'claude-code', status: 'unchanged', settings_path: settingsPath });
    expect(read(settingsPath)).toEqual(after);
    expect(read(join(userHome, '.claude.json'))).toEqual(mcp);
  });

  it('the registered command runs the hook', () => {
    const after = read(settingsPath) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const command = after.hooks.SessionStart[0].hooks[0].command;
    const r = spawnSync('/bin/sh', ['-c', command], { input: '{}', env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(existsSync(join(home, 'integrations', 'hooks', 'heartbeat.jsonl'))).toBe(true);
  });

  it('--uninstall restores the settings, keeping every other hook', () => {
    const r = runCli(['--home', home, 'bootstrap', '--uninstall'], { env });
    expect(r.stdout).toContain('claude-code hooks removed');
    expect(read(settingsPath)).toEqual(existing);
    expect(read(join(userHome, '.claude.json'))).toEqual({});
    expect(runCli(['--home', home, 'bootstrap', '--uninstall'], { env }).stdout).toContain('unchanged');
  });

  it('writes Codex hooks.json with the codex channel', () => {
    const r = runCli(['--home', home, 'bootstrap', '--harness', 'codex'], { env });
    expect(r.code).toBe(0);
    const codex = read(join(userHome, '.codex', 'hooks.json')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(codex.hooks.UserPromptSubmit[0].hooks[0].command).toMatch(/hook user-prompt --harness codex$/);
    expect(codex.hooks.PostToolUse[0].hooks[0].command).toMatch(/hook post-tool --harness codex$/);
    const toml = readFileSync(join(userHome, '.codex', 'config.toml'), 'utf8');
    expect(toml).toBe(`[mcp_servers.brainstream]\ncommand = "/bin/bash"\nargs = ["${join(home, 'bin', 'brainstream-launch')}", "--home", "${home}", "mcp"]\n`);
  });

  it('Codex config.toml: other settings kept, idempotent, --uninstall removes only the brainstream table', () => {
    const path = join(userHome, '.codex', 'config.toml');
    const theirs = 'model = "gpt-5-codex"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
    writeFileSync(path, `${theirs}\n[mcp_servers.brainstream]\ncommand = "old"\nargs = ["brainstream", "mcp"]\n\n[mcp_servers.brainstream.env]\nX = "1"\n\n[features]\nhooks = true\n`);
    expect(runCli(['--home', home, 'bootstrap', '--harness', 'codex'], { env }).code).toBe(0);
    const installed = readFileSync(path, 'utf8');
    expect(installed.startsWith(`${theirs}\n[features]\nhooks = true\n\n[mcp_servers.brainstream]\n`)).toBe(true);
    expect(runCli(['--home', home, 'bootstrap', '--harness', 'codex', '--json'], { env }).stdout).toContain('"status":"unchanged"');
    expect(runCli(['--home', home, 'bootstrap', '--harness', 'codex', '--uninstall'], { env }).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(`${theirs}\n[features]\nhooks = true\n`);
  });

  it('hooks survive a moved installation: the registered command finds the current one at run time', () => {
    // An installation of its own (the built package), its bin folder on the PATH as a package manager would.
    const install = (dir: string): string => {
      mkdirSync(dir, { recursive: true });
      cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
      cpSync(join(ROOT, 'migrations'), join(dir, 'migrations'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      return dir;
    };
    const binDir = (name: string, target: string): string => {
      const bin = join(tmp.path, name);
      mkdirSync(bin, { recursive: true });
      symlinkSync(join(target, 'dist', 'src', 'cli', 'main.js'), join(bin, 'brainstream'));
      return bin;
    };
    const movedHome = join(tmp.path, 'moved-brain');
    const settings = join(tmp.path, 'moved-settings.json');
    const first = install(join(tmp.path, 'install-a'));
    const pathA = `${binDir('bin-a', first)}:${dirname(process.execPath)}:/usr/bin:/bin`;
    const envA = { ...env, PATH: pathA, BRAINSTREAM_AUTOSTART: '0' };
    const boot = spawnSync(process.execPath, [join(first, 'dist', 'src', 'cli', 'main.js'), '--home', movedHome, 'bootstrap', '--settings', settings, '--mcp-config', join(tmp.path, 'moved-claude.json')], { env: { ...process.env, ...envA }, encoding: 'utf8' });
    expect(boot.status).toBe(0);
    const command = (read(settings) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks.UserPromptSubmit[0].hooks[0].command;
    expect(command).not.toContain(first);

    const second = join(tmp.path, 'install-b');
    renameSync(first, second);
    const runRegistered = (path: string) =>
      spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify({ session_id: 's', prompt: 'hello' }), env: { ...process.env, ...env, PATH: path, BRAINSTREAM_AUTOSTART: '0' }, encoding: 'utf8' });
    const beats = (): number => (existsSync(join(movedHome, 'integrations', 'hooks', 'heartbeat.jsonl')) ? readFileSync(join(movedHome, 'integrations', 'hooks', 'heartbeat.jsonl'), 'utf8').trim().split('\n').length : 0);
    // The old place is gone and nothing on the PATH names brainstream: it fails open, silently.
    const gone = runRegistered(`${dirname(process.execPath)}:/usr/bin:/bin`);
    expect(gone).toMatchObject({ status: 0, stdout: '' });
    expect(beats()).toBe(0);
    // The package manager put the moved installation on the PATH: the same registered command runs it.
    const found = runRegistered(`${binDir('bin-b', second)}:${dirname(process.execPath)}:/usr/bin:/bin`);
    expect(found.status).toBe(0);
    expect(beats()).toBe(1);
  });

  it('refuses a settings file that is not JSON, changing nothing', () => {
    const bad = join(tmp.path, 'bad.json');
    writeFileSync(bad, '{ not json');
    const r = runCli(['--home', home, 'bootstrap', '--settings', bad], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^brainstream: invalid_settings_file: /);
    expect(readFileSync(bad, 'utf8')).toBe('{ not json');
    expect(runCli(['--home', home, 'bootstrap', '--harness', 'zed'], { env }).code).toBe(2);
  });
});
