import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import { defaultSettingsPath, readInstallRecords, readSettings, writeInstallRecords, writeSettings, type BootstrapHarness } from '../../hooks/hook-install.js';
import { ourCommands, withOurHooks, withoutOurHooks } from '../../hooks/hook-settings.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';

/** POSIX shell quoting: harnesses run hook commands through a shell. */
const quote = (s: string): string => (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** A bash for the fast hook client, or null (Windows, or no bash where it usually is). */
function findBash(): string | null {
  if (process.platform === 'win32') return null;
  return ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'].find((p) => existsSync(p)) ?? null;
}

/**
 * The hook command line: this node, this build, this brain — no PATH lookup at prompt time.
 * With bash, the fast client (src/hooks/fast-hook.sh) runs it through serve without starting
 * Node, and falls back to exactly this node command when serve is not there.
 */
const hookCommand = (home: string, harness: BootstrapHarness, fast: boolean) => (event: string): string => {
  const node = [process.execPath, fileURLToPath(new URL('../main.js', import.meta.url)), '--home', home, 'hook', event, '--harness', harness];
  const bash = fast ? findBash() : null;
  const client = fileURLToPath(new URL('../../hooks/fast-hook.sh', import.meta.url));
  const argv = bash && existsSync(client) ? [bash, client, ...node] : node;
  return argv.map(quote).join(' ');
};

export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap')
    .description('register the UserPromptSubmit and SessionStart hooks in a harness’s settings (idempotent; --uninstall reverses)')
    .option('--harness <name>', 'claude-code (default) or codex')
    .option('--uninstall', 'remove brainstream’s hooks (other hooks are kept)')
    .option('--settings <path>', 'settings file (default: ~/.claude/settings.json or ~/.codex/hooks.json)')
    .option('--no-fast-client', 'register the plain Node hook command instead of the bash fast client')
    .option('--json')
    .action(async (opts: { harness?: string; uninstall?: boolean; settings?: string; fastClient: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const harness = (opts.harness ?? 'claude-code') as BootstrapHarness;
      if (harness !== 'claude-code' && harness !== 'codex') throw new UsageError(`--harness expects claude-code or codex, got ${JSON.stringify(opts.harness)}`);
      const path = resolve(opts.settings ?? defaultSettingsPath(harness));
      const before = readSettings(path);
      const after = opts.uninstall ? withoutOurHooks(before) : withOurHooks(before, hookCommand(ctx.home, harness, opts.fastClient));
      const changed = JSON.stringify(before) !== JSON.stringify(after);
      if (changed) writeSettings(path, after);
      const records = readInstallRecords(ctx.home).filter((r) => !(r.harness === harness && r.settings_path === path));
      if (!opts.uninstall) records.push({ harness, settings_path: path, installed_at: new Date().toISOString() });
      writeInstallRecords(ctx.home, records);
      const status = !changed ? 'unchanged' : opts.uninstall ? 'removed' : 'installed';
      if (ctx.json) {
        outJson({ harness, settings_path: path, status, hooks: ourCommands(after) });
        return;
      }
      outLine(`bootstrap: ${harness} hooks ${status} in ${path}`);
      if (!opts.uninstall) outLine('restart the harness session: hooks are read when a session starts');
      if (!opts.uninstall && harness === 'codex') outLine('codex: hooks need [features] hooks = true in ~/.codex/config.toml on releases where they are off by default');
    });
}
