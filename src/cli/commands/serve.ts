import type { Command } from 'commander';
import { homePaths } from '../../brain/home.js';
import { BrainstreamError } from '../../errors.js';
import type { RunCommand } from '../../serve/command-host.js';
import type { ServeRuntime } from '../../serve/serve-runtime.js';
import { commandContext } from '../globals.js';
import { errLine } from '../output.js';
import { withServeRuntime } from '../with-brain.js';
import { runKafkaServe, withKafkaServeOptions } from './serve-kafka.js';

/** Resolves at the first SIGINT/SIGTERM; a second one while stopping exits at once. */
function untilSignalled(runtime: ServeRuntime): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const force = (): never => process.exit(130);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      runtime.endInput();
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/**
 * `brainstream serve` (push-context §7.3, §14.6): owns the embedded brain until SIGINT/SIGTERM.
 * The log backend is the embedded one; `--kafka` runs a member of the distributed mode instead.
 */
export function registerServe(program: Command, runCommand: RunCommand): void {
  withKafkaServeOptions(program.command('serve'))
    .description('own the brain: run the stream processors and projections continuously and answer the local socket')
    .action(async (opts: { kafka?: string | boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      if (ctx.caller.kind === 'remote') throw new BrainstreamError('owner_only', 'serve is an owner-only command');
      if (opts.kafka !== undefined) return runKafkaServe(opts, ctx.home);
      await withServeRuntime(ctx.home, { role: 'serve', runCommand }, async (runtime) => {
        errLine(`[serve] listening on ${homePaths(ctx.home).socket} (pid ${process.pid})`);
        await untilSignalled(runtime);
        errLine('[serve] stopping: finishing requests in flight');
      });
      errLine('[serve] stopped');
    });
}
