import type { Caller } from '../caller.js';
import type { HostOpContext } from '../ops/operations/operation.js';
import { runHostOperation } from '../ops/registry.js';
import type { CommandContext } from './globals.js';
import { progressBar } from './progress.js';
import { withBrain } from './with-brain.js';

/** The host context of a CLI command: its caller and home, progress bars, the brain opened on first use. */
export const cliHostContext = (ctx: CommandContext, caller: Caller = ctx.caller): HostOpContext => ({
  caller,
  home: ctx.home,
  progress: progressBar,
  withBrain: (fn) => withBrain(ctx.home, fn),
});

/**
 * Runs the operation behind a CLI command as the command's caller, through the registry, so the
 * command's caller rule is the operation's declared access; the command renders the result.
 */
export const runCommandOperation = <R>(ctx: CommandContext, name: string, params: unknown): Promise<R> =>
  runHostOperation(cliHostContext(ctx), name, params) as Promise<R>;
