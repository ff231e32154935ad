import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

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
    expect(ours.command).toMatch(/main\.js --home .* hook user-prompt --harness claude-code$/);
    expect(after.hooks.SessionStart[0].hooks[0].command).toMatch(/hook session-start --harness claude-code$/);
    expect(statSync(settingsPath).mode & 0o777).toBe(0o644);

    const again = runCli(['--home', home, 'bootstrap', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ harness: 'claude-code', status: 'unchanged', settings_path: settingsPath });
    expect(read(settingsPath)).toEqual(after);
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
    expect(runCli(['--home', home, 'bootstrap', '--uninstall'], { env }).stdout).toContain('unchanged');
  });

  it('writes Codex hooks.json with the codex channel', () => {
    const r = runCli(['--home', home, 'bootstrap', '--harness', 'codex'], { env });
    expect(r.code).toBe(0);
    const codex = read(join(userHome, '.codex', 'hooks.json')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(codex.hooks.UserPromptSubmit[0].hooks[0].command).toMatch(/hook user-prompt --harness codex$/);
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
