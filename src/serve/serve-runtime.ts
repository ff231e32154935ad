import { deadlineFromEnv } from '../hooks/hook-deadline.js';
import { appendSpooledEvents, openBrain, type Brain } from '../brain/brain.js';
import { homePaths } from '../home.js';
import { topicOf, type Envelope } from '../domain/events.js';
import { logger } from '../logger.js';
import { outsideCommand } from '../command-io.js';
import type { PageIndex } from '../context/page-index.js';
import { startPurgeSchedule, type PurgeSchedule } from '../../projections/purge-schedule.js';
import { TurnEngine } from '../../streams/turn-engine.js';
import { Activity, tracked } from './activity.js';
import { CommandHost, type RunCommand } from './command-host.js';
import { CoreCacheKeeper } from './core-cache-keeper.js';
import { DeliveryLog } from '../turn-context/delivery-log.js';
import { hostBrain, type HostedBrain } from './hosted-brain.js';
import { HookListener } from './hook-listener.js';
import { HookSessionNumbers } from './hook-session-numbers.js';
import { ASSEMBLY_BUDGET_MS } from './handle-turn-context.js';
import { HotFacts } from './hot-facts.js';
import { requestRouter } from './request-router.js';
import { scopeProcessToRequests } from './request-scope.js';
import { clearRunFolder, prepareRunFolder } from './run-folder.js';
import type { ServeDeps } from './serve-deps.js';
import { topologySettings } from '../../streams/topology-settings.js';
import { SocketServer } from './socket-server.js';

/**
 * How long serve may take to assemble a turn's block: the prompt hook gives serve about half of
 * its own deadline, so a hook deadline raised for a slow machine raises serve's share alike.
 */
function assemblyBudgetMs(env: NodeJS.ProcessEnv): number {
  const hookDeadline = deadlineFromEnv(env.BRAINSTREAM_HOOK_DEADLINE_MS);
  return hookDeadline === null ? ASSEMBLY_BUDGET_MS : Math.max(ASSEMBLY_BUDGET_MS, Math.floor(hookDeadline / 2));
}

export interface RuntimeOptions {
  /** `serve`, or a `watch` serving the socket while it holds the brain (commands started meanwhile go through it). */
  role: 'serve' | 'watch';
  /** Safety-net poll of the log between local appends. */
  pollMs?: number;
  /** Runs the commands clients forward (the CLI program, given by the CLI). */
  runCommand: RunCommand;
  /** Records every request (socket and hook lane), so an idle owner can stop itself. */
  activity?: Activity;
  /** The per-turn assembly budget (default 400 ms: a harness waits on it). */
  turnBudgetMs?: number;
}

export interface StopOptions {
  /** End the stdin of streamed commands (a forwarded `watch` drains and finishes) instead of waiting for it. */
  endInput?: boolean;
}

function deferred<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

const touchesPages = (events: readonly Envelope[]): boolean => events.some((e) => topicOf(e.type) === 'pages');
const touchesTurns = (events: readonly Envelope[]): boolean => events.some((e) => topicOf(e.type) === 'turns');
const touchesCore = (events: readonly Envelope[]): boolean => events.some((e) => topicOf(e.type) === 'core');
const touchesFacts = (events: readonly Envelope[]): boolean => events.some((e) => e.type.startsWith('fact.'));

/**
 * The embedded brain run by one long-lived process (`serve`, or a `watch` without one): it holds
 * the lock, keeps the page index live, runs the volunteer processor and the projections
 * continuously, answers the socket, and keeps the core cache current. Commands of other
 * processes reach it through the socket; commands it runs use its brain (`hostedBrain`).
 */
export class ServeRuntime {
  private stopping: Promise<void> | null = null;
  private readonly unhost: () => void;

  private constructor(
    readonly home: string,
    readonly hosted: HostedBrain,
    private readonly server: SocketServer,
    private readonly engine: TurnEngine,
    private readonly purge: PurgeSchedule | null,
    private readonly deps: ServeDeps,
    private readonly hooks: HookListener | null,
    private readonly stopSpoolSweep: () => Promise<void>,
  ) {
    this.unhost = hostBrain(hosted);
  }

  static async start(home: string, options: RuntimeOptions): Promise<ServeRuntime> {
    scopeProcessToRequests();
    const activity = options.activity ?? new Activity();
    const ready = deferred<ServeDeps>();
    let server: SocketServer | null = null;
    let secret = '';
    let brain: Brain;
    try {
      // Listen as soon as the lock is ours: clients that find the socket wait for `ready`
      // instead of failing on the lock while the database opens.
      brain = await openBrain(home, {
        // The engine decides the turns handed over from the cold path as it starts.
        decidesTurns: true,
        onLocked: async () => {
          secret = prepareRunFolder(home);
          const route = requestRouter(ready.promise);
          server = new SocketServer(homePaths(home).socket, secret, (raw, conn) => tracked(activity, () => route(raw, conn)));
          await server.listen();
        },
      });
    } catch (err) {
      ready.reject(err);
      await (server as SocketServer | null)?.close();
      if (server) clearRunFolder(home);
      throw err;
    }
    try {
      // A `watch` holding the brain serves the socket only: the hooks' fast lane and the daily
      // purge belong to `serve` (without the lane the hooks start Node themselves: slower, never broken).
      const hooks = options.role === 'serve' ? new HookListener(home, secret, activity) : null;
      const runtime = await ServeRuntime.assemble(home, brain, server!, options, hooks);
      ready.resolve(runtime.deps);
      await hooks?.listen().catch((err: unknown) => logger.warn({ err }, 'fast hook lane not available'));
      return runtime;
    } catch (err) {
      ready.reject(err);
      await server!.close();
      await brain.close();
      clearRunFolder(home);
      throw err;
    }
  }

  private static async assemble(home: string, brain: Brain, server: SocketServer, options: RuntimeOptions, hooks: HookListener | null): Promise<ServeRuntime> {
    const engine = await TurnEngine.start(brain, { settings: () => topologySettings(home), channel: 'watch', detach: outsideCommand });
    const index = (): Promise<PageIndex> => engine.pageIndex();
    const core = new CoreCacheKeeper(brain, home, () => engine.indexAsIs().sourceIds());
    const facts = new HotFacts(brain.db);
    brain.useLivePageIndex(index);
    brain.onCommit((events) => {
      if (touchesPages(events) || touchesCore(events)) core.invalidate();
      if (touchesTurns(events)) engine.kick();
      if (touchesFacts(events)) facts.invalidate();
    });
    // Turns appended before this start (a crash, a direct watch) are decided now; if that fails,
    // the owner starts anyway and the engine retries on the next append or poll.
    await engine.catchUpNow().catch((err: unknown) => logger.warn({ err }, 'deciding the turns left from before failed; retrying on the next append or poll'));
    engine.poll(options.pollMs ?? 1000);
    // The cold path answers while no serve does, also while this one was opening the brain: what
    // it spooled then goes into the log before any command runs, and within a second otherwise.
    const takeSpool = async (): Promise<void> => {
      try {
        if ((await appendSpooledEvents(brain, home)) > 0) await engine.settle();
      } catch (err) {
        logger.warn({ err }, 'deciding the handed-over turns failed; retrying on the next append or poll');
      }
    };
    let sweeping = Promise.resolve();
    const sweep = setInterval(() => void (sweeping = sweeping.then(takeSpool)), options.pollMs ?? 1000);
    sweep.unref();
    await core.write();
    core.start();
    const deps: ServeDeps = {
      role: options.role,
      home,
      brain,
      pageIndex: index,
      deliveries: new DeliveryLog(brain),
      turns: engine,
      hookSessions: new HookSessionNumbers(brain.db),
      turnBudgetMs: options.turnBudgetMs ?? assemblyBudgetMs(process.env),
      core,
      hotFacts: (sourceId) => facts.forSource(sourceId),
      // A command may have changed the config (the core switch): the cache follows.
      commands: new CommandHost(home, options.runCommand, () => core.configMaybeChanged(), takeSpool),
    };
    const hosted: HostedBrain = { role: options.role, home, brain, turns: engine };
    // The daily purge of volunteered events past the retention.
    const purge = options.role === 'serve' ? startPurgeSchedule(brain) : null;
    return new ServeRuntime(home, hosted, server, engine, purge, deps, hooks, async () => {
      clearInterval(sweep);
      await sweeping;
    });
  }

  /** Ends every streamed command's stdin now (a second interrupt while stopping). */
  endInput(): void {
    this.deps.commands.endAllInput();
  }

  /**
   * Graceful shutdown: stop accepting, let requests in flight finish, drain pending appends,
   * run a final catch-up, close the database, remove the socket, secret and lock.
   */
  stop(options: StopOptions = {}): Promise<void> {
    return (this.stopping ??= this.shutdown(options));
  }

  private async shutdown(options: StopOptions): Promise<void> {
    // Hook runs in flight ask the socket for their block: the fast lane stops first.
    await this.hooks?.close();
    this.server.stopAccepting();
    if (options.endInput) this.endInput();
    await this.server.close();
    await this.deps.deliveries.drain();
    await this.stopSpoolSweep();
    try {
      await this.engine.stop();
    } catch (err) {
      logger.warn({ err }, 'final catch-up failed; it resumes at the next start');
    }
    await this.purge?.stop();
    await this.deps.core.stop();
    await this.deps.core.write();
    this.unhost();
    try {
      await this.deps.brain.close();
    } finally {
      clearRunFolder(this.home);
    }
  }
}
