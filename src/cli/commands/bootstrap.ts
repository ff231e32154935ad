import type { Command } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import { defaultSettingsPath, readInstallRecords, readSettings, writeInstallRecords, writeSettings, type BootstrapHarness } from '../../hooks/hook-install.js';
import { ourCommands, withOurHooks, withoutOurHooks } from '../../hooks/hook-settings.js';
import { findBash, writeLauncher } from '../../hooks/launcher.js';
import { MCP_SERVER_NAME, mcpConfigPath, registerMcpServer } from '../../hooks/mcp-registration.js';
import { commandContext } from '../globals.js';
import { outJson, outLine } from '../output.js';

/** POSIX shell quoting: harnesses run hook commands through a shell. */
const quote = (s: string): string => (/^[A-Za-z0-9_\-./:=@%+,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * How the harness starts brainstream: bash and the launcher in the brain's home, which finds
 * the installation each time it runs (never a Node binary or an install path, so upgrades and
 * moves keep working). Without bash (Windows): `brainstream` on the PATH.
 */
function launchArgv(home: string, bash: string | null, fast: boolean): (args: string[]) => string[] {
  if (bash === null) return (args) => ['brainstream', ...args];
  const launcher = writeLauncher(home, { main: fileURLToPath(new URL('../main.js', import.meta.url)), node: process.execPath });
  return (args) => [bash, launcher, ...(fast && args.includes('hook') ? ['--fast'] : []), ...args];
}
export function registerBootstrap(program: Command): void {
  program
    .command('bootstrap')
    .description('register the hooks (UserPromptSubmit, SessionStart, PostToolUse) and the MCP server in a harness (idempotent; --uninstall reverses)')
    .option('--harness <name>', 'claude-code (default) or codex')
    .option('--uninstall', 'remove brainstream’s hooks and MCP server (everything else is kept)')
    .option('--settings <path>', 'settings file (default: ~/.claude/settings.json or ~/.codex/hooks.json)')
    .option('--mcp-config <path>', 'MCP configuration file (default: ~/.claude.json or ~/.codex/config.toml)')
    .option('--no-fast-client', 'hooks always start Node instead of first asking a running serve through the bash fast client')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { harness?: string; uninstall?: boolean; settings?: string; mcpConfig?: string; fastClient: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      const harness = (opts.harness ?? 'claude-code') as BootstrapHarness;
      if (harness !== 'claude-code' && harness !== 'codex') throw new UsageError(`--harness expects claude-code or codex, got ${JSON.stringify(opts.harness)}`);
      const path = resolve(opts.settings ?? defaultSettingsPath(harness));
      const before = readSettings(path);
      const mcpPath = resolve(opts.mcpConfig ?? mcpConfigPath(harness));
      const argv = opts.uninstall ? null : launchArgv(ctx.home, findBash(), opts.fastClient);
      const commandFor = (event: string): string => argv!(['--home', ctx.home, 'hook', event, '--harness', harness]).map(quote).join(' ');
      const after = argv === null ? withoutOurHooks(before) : withOurHooks(before, commandFor);
      const hooksChanged = JSON.stringify(before) !== JSON.stringify(after);
      const mcp = argv === null ? null : argv(['--home', ctx.home, 'mcp']);
      const mcpChanged = registerMcpServer(harness, mcpPath, mcp === null ? null : { command: mcp[0]!, args: mcp.slice(1) });
      if (hooksChanged) writeSettings(path, after);
      const changed = hooksChanged || mcpChanged;
      const records = readInstallRecords(ctx.home).filter((r) => !(r.harness === harness && r.settings_path === path));
      if (!opts.uninstall) records.push({ harness, settings_path: path, installed_at: new Date().toISOString() });
      writeInstallRecords(ctx.home, records);
      const status = !changed ? 'unchanged' : opts.uninstall ? 'removed' : 'installed';
      if (ctx.json) {
        outJson({ harness, settings_path: path, mcp_config_path: mcpPath, status, hooks: ourCommands(after), mcp_server: mcp === null ? null : { command: mcp[0], args: mcp.slice(1) } });
        return;
      }
      outLine(`bootstrap: ${harness} hooks ${status} in ${path}`);
      outLine(`bootstrap: ${harness} MCP server "${MCP_SERVER_NAME}" ${opts.uninstall ? (mcpChanged ? 'removed' : 'unchanged') : mcpChanged ? 'registered' : 'unchanged'} in ${mcpPath}`);
      if (!opts.uninstall) outLine('restart the harness session: hooks are read when a session starts');
      if (!opts.uninstall && harness === 'codex') outLine('codex: hooks need [features] hooks = true in ~/.codex/config.toml on releases where they are off by default');
    });
}
