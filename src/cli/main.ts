#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { BrainstreamError, UsageError } from '../errors.js';
import { registerCommands } from './register-commands.js';
import { errLine, outJson } from './output.js';

const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function buildProgram(): Command {
  const program = new Command('brainstream')
    .description('push-based context and core memory for AI agents, as an event-sourced stream processor')
    .version(version, '-V, --version')
    .option('--home <dir>', 'data directory (default: BRAINSTREAM_HOME or ~/.brainstream)')
    .option('--as <caller>', 'call as the owner or as a remote caller (owner|remote)', 'owner')
    .option('--grant <ids>', 'readable sources of a remote caller (comma-separated)')
    .option('--debug', 'print stack traces on errors')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} });
  registerCommands(program);
  for (const cmd of program.commands) applyExitOverride(cmd);
  return program;
}

function applyExitOverride(cmd: Command): void {
  cmd.exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
  for (const sub of cmd.commands) applyExitOverride(sub);
}

/** Exit codes: 0 success, 1 runtime error (`brainstream: <code>: <message>`), 2 usage error. */
async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  const debug = argv.includes('--debug');
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version') {
        process.exitCode = 0;
        return;
      }
      errLine(`brainstream: ${err.message.replace(/^error: /, '')}`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof UsageError) {
      errLine(`brainstream: ${err.message}`);
      process.exitCode = 2;
      return;
    }
    const code = err instanceof BrainstreamError ? err.code : errorCode(err);
    const message = err instanceof Error ? err.message : String(err);
    errLine(`brainstream: ${code}: ${message.split('\n')[0]}`);
    if (debug && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    if (json) outJson({ error: code, message, ...(err instanceof BrainstreamError ? err.details : {}) });
    process.exitCode = 1;
  }
}

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'internal_error';
}

await main(process.argv);
