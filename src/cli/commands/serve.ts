import type { Command } from 'commander';
import { homePaths } from '../../home.js';
import { BrainstreamError } from '../../errors.js';
import type { RunCommand } from '../../serve/command-host.js';
import { readConfigFile } from '../../config/config-file.js';
import { memorySettings } from '../../core-memory/memory-settings.js';
import { packageVersion } from '../../package-version.js';
import { Activity } from '../../serve/activity.js';
import { pingServe } from '../../serve-client/autostart.js';
import type { ServeRuntime } from '../../serve/serve-runtime.js';
import { checkHostAction } from '../../ops/host-actions.js';
import { commandContext } from '../globals.js';
import { errLine } from '../output.js';
import { withServeRuntime } from '../with-brain.js';
import { runKafkaServe, withKafkaServeOptions } from './serve-kafka.js';

/**
 * Resolves at the first SIGINT/SIGTERM, or once serve has had no request for
 * `memory.serve.idle_minutes` when `idleStop` (a serve started automatically); a second signal
 * while stopping exits at once.
 */
function untilStopped(runtime: ServeRuntime, activity: Activity, home: string, idleStop: boolean): Promise<'signal' | 'idle'> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = (why: 'signal' | 'idle'): void => {
      clearInterval(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const force = (): never => process.exit(130);
      process.once('SIGINT', force);
      process.once('SIGTERM', force);
      runtime.endInput();
      resolve(why);
    };
    const onSignal = (): void => stop('signal');
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (idleStop) {
      const idleLimitMs = (): number => memorySettings(readConfigFileOrEmpty(home)).serveIdleMinutes * 60_000;
      timer = setInterval(() => {
        if (activity.idleMs() >= idleLimitMs()) stop('idle');
      }, IDLE_CHECK_MS);
    }
  });
}

/** How often an idle-stopping serve looks at its clock. */
const IDLE_CHECK_MS = 15_000;

function readConfigFileOrEmpty(home: string): Record<string, unknown> {
  try {
    return readConfigFile(home);
  } catch {
    return {};
  }
}

/**
 * A second serve is told what already owns the brain, not to "start serve": the serve (or watch)
 * answering the socket, else another process that opened the brain for one command.
 */
async function servedAlready(home: string, err: unknown): Promise<unknown> {
  if (!(err instanceof BrainstreamError) || err.code !== 'brain_locked') return err;
  const ping = await pingServe(home).catch(() => null);
  if (ping?.role === 'serve') return new BrainstreamError('brain_locked', `serve already running (pid ${ping.pid})`, { pid: ping.pid });
  if (ping?.role === 'watch') {
    return new BrainstreamError('brain_locked', `watch (pid ${ping.pid}) owns the brain and serves its socket; serve can start once it ends`, { pid: ping.pid });
  }
  const pid = err.details.pid;
  return new BrainstreamError('brain_locked', `the brain is open in another process (pid ${String(pid)}); serve can start once it is done`, { pid });
}

/**
 * `brainstream serve`: owns the embedded brain until SIGINT/SIGTERM.
 * The log backend is the embedded one; `--kafka` runs a member of the distributed mode instead.
 */
export function registerServe(program: Command, runCommand: RunCommand): void {
  withKafkaServeOptions(program.command('serve'))
    .description('own the brain: run the stream processors and projections continuously and answer the local socket')
    .option('--idle-stop', 'stop after memory.serve.idle_minutes without a request (how serve runs when started automatically)')
    .action(async (opts: { kafka?: string | boolean; idleStop?: boolean }, cmd: Command) => {
      const ctx = commandContext(cmd);
      checkHostAction('serve', ctx.caller);
      if (opts.kafka !== undefined) return runKafkaServe(opts, ctx.home);
      const activity = new Activity();
      let started = false;
      try {
        await withServeRuntime(ctx.home, { role: 'serve', activity, runCommand }, async (runtime) => {
          started = true;
          errLine(`[serve] listening on ${homePaths(ctx.home).socket} (pid ${process.pid}, version ${packageVersion()})`);
          const why = await untilStopped(runtime, activity, ctx.home, opts.idleStop === true);
          errLine(why === 'idle' ? '[serve] stopping: idle' : '[serve] stopping: finishing requests in flight');
        });
      } catch (err) {
        throw started ? err : await servedAlready(ctx.home, err);
      }
      errLine('[serve] stopped');
    });
}
