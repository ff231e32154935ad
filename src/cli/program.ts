import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { ZodError } from 'zod';
import { BrainstreamError, UsageError } from '../errors.js';
import { isConnectionLoss } from '../db/connection-loss.js';
import { asDatabaseUnavailable } from '../db/database-unavailable.js';
import { asKafkaUnavailable } from '../event-log/kafka/kafka-unavailable.js';
import { describeZodIssues } from '../domain/zod-issues.js';
import { cliIo } from '../command-io.js';
import { registerCommands } from './register-commands.js';
import { errLine, errText, out, outJson } from './output.js';

let version: string | undefined;
const packageVersion = (): string =>
  (version ??= (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version);

/** Help and version text go to the command's sinks; commander's own error text is replaced by ours. */
const OUTPUT = { writeOut: (s: string) => out(s), writeErr: () => {}, outputError: () => {} };

/**
 * A fresh program per run: commander keeps parsed values on its commands, so runs never share
 * one. Building it runs no command; docs/cli.md is rendered from it.
 */
export function buildProgram(): Command {
  const program = new Command('brainstream')
    .description('push-based context and core memory for AI agents, as an event-sourced stream processor')
    .version(packageVersion(), '-V, --version')
    .option('--home <dir>', 'data directory (default: BRAINSTREAM_HOME or ~/.brainstream)')
    .option('--as <caller>', 'call as the owner or as a remote caller (owner|remote)', 'owner')
    .option('--grant <ids>', 'sources a remote caller may read (comma-separated; default: the bound source)')
    // Global as the contract has it (`brainstream --as remote --source S <command>`); a
    // command's own `--source` is the same option, so either place works.
    .option('--source <id>', 'source to read and write (default: BRAINSTREAM_SOURCE or "default")')
    .option('--debug', 'print stack traces on errors')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput(OUTPUT);
  registerCommands(program, { runCommand: runProgram });
  for (const cmd of program.commands) applyExitOverride(cmd);
  return program;
}

function applyExitOverride(cmd: Command): void {
  cmd.exitOverride().configureOutput(OUTPUT);
  for (const sub of cmd.commands) applyExitOverride(sub);
}

/**
 * Runs one command line (the arguments after the script name) and returns its exit code:
 * 0 success, 1 runtime error (`brainstream: <code>: <message>`), 2 usage error. The same
 * function runs a direct invocation and a command forwarded to serve, so both print the same.
 */
export async function runProgram(args: readonly string[]): Promise<number> {
  const debug = args.includes('--debug');
  const json = args.includes('--json');
  try {
    await buildProgram().parseAsync([...args], { from: 'user' });
    return cliIo().exitCode ?? 0;
  } catch (thrown) {
    const err = asUnavailable(thrown);
    if (err instanceof CommanderError) {
      if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
      errLine(`brainstream: ${err.message.replace(/^error: /, '')}`);
      return 2;
    }
    if (err instanceof UsageError) {
      errLine(`brainstream: ${err.message}`);
      return 2;
    }
    const code = err instanceof BrainstreamError ? err.code : err instanceof ZodError ? 'invalid_input' : errorCode(err);
    const message = err instanceof ZodError ? describeZodIssues(err) : err instanceof Error ? err.message : String(err);
    // One line, and all of it: a message quoting the input (JSON.parse's does) is folded, not cut.
    errLine(`brainstream: ${code}: ${oneLine(message)}`);
    if (debug && err instanceof Error && err.stack) errText(`${err.stack}\n`);
    if (json) outJson({ error: code, message, ...(err instanceof BrainstreamError ? err.details : {}) });
    return 1;
  }
}

/** A broker or database that could not be reached is its own error, whichever command met it. */
function asUnavailable(err: unknown): unknown {
  const kafka = asKafkaUnavailable(err);
  if (kafka !== err) return kafka;
  return isConnectionLoss(err) ? asDatabaseUnavailable(err, '') : err;
}

const oneLine = (message: string): string => message.trim().replace(/\s*[\r\n]+\s*/g, ' ');

function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'internal_error';
}
