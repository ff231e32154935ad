import type { Command } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import { defaultSettingsPath, readInstallRecords, readSettings, writeInstallRecords, writeSettings, type BootstrapHarness } from '../../hooks/hook-install.js';
import { ourCommands, withOurHooks, withoutOurHooks } from '../../hooks/hook-settings.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';

/** POSIX shell quoting: harnesses run hook commands through a shell. */
const quote = (s: string): string => (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The hook command line: this node, this build, this brain — no PATH lookup at prompt time. */
const hookCommand = (home: string, harness: BootstrapHarness) => (event: string): string =>
  [process.execPath, fileURLToPath(new URL('../main.js', import.meta.url)), '--home', home, 'hook', event, '--harness', harness].map(quote).join(' ');

export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap')
    .description('register the UserPromptSubmit and SessionStart hooks in a harness’s settings (idempotent; --uninstall reverses)')
    .option('--harness <name>', 'claude-code (default) or codex')
    .option('--uninstall', 'remove brainstream’s hooks (other hooks are kept)')
    .option('--settings <path>', 'settings file (default: ~/.claude/settings.json or ~/.codex/hooks.json)')
    .option('--json')
    .action(async (opts: { harness?: string; uninstall?: boolean; settings?: string }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const harness = (opts.harness ?? 'claude-code') as BootstrapHarness;
      if (harness !== 'claude-code' && harness !== 'codex') throw new UsageError(`--harness expects claude-code or codex, got ${JSON.stringify(opts.harness)}`);
      const path = resolve(opts.settings ?? defaultSettingsPath(harness));
      const before = readSettings(path);
      const after = opts.uninstall ? withoutOurHooks(before) : withOurHooks(before, hookCommand(ctx.home, harness));
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
