import { deadlineFromEnv } from './hook-deadline.js';
import { resolveHome, secureExistingHome } from '../home.js';
import { BrainstreamError } from '../errors.js';
import { autostartEnabled, ensureServe } from '../serve-client/autostart.js';
import type { HookArgs, HookEvent } from './hook-argv.js';
import { fitAdditionalContext, userPromptJson } from './hook-output.js';
import { writeHeartbeat } from './heartbeat.js';
import type { HookStdin } from './read-hook-stdin.js';
import { sessionStartCoreFields } from './session-start-beat.js';
import type { HookRun, Pending } from './user-prompt.js';

/** Where a hook run reads the harness JSON and writes its answer: the process, or a fast client's connection to serve. */
export interface HookIo {
  stdin: HookStdin;
  write(text: string): void;
}

const processHookIo = (): HookIo => ({ stdin: process.stdin, write: (text) => void process.stdout.write(text) });

/** Self-deadlines: the harness waits on the hook, so it answers (or gives up) in time. */
const DEADLINE_MS: Record<HookEvent, number> = { 'user-prompt': 800, 'session-start': 1500, compact: 800, 'post-tool': 800 };
// session-start races its own deadline internally; this net only catches a stuck process.
const NET_SLACK_MS: Record<HookEvent, number> = { 'user-prompt': 0, 'session-start': 150, compact: 0, 'post-tool': 0 };

async function runEvent(event: HookEvent, args: HookArgs, home: string, pending: Pending, startedAt: number, stdin: HookStdin, deadlineMs: number): Promise<HookRun> {
  switch (event) {
    case 'user-prompt':
      return (await import('./user-prompt.js')).runUserPrompt(home, args.harness, pending, startedAt, stdin, deadlineMs);
    case 'session-start':
      return (await import('./session-start.js')).runSessionStart(home, startedAt, stdin, deadlineMs);
    case 'compact':
      return (await import('./compact.js')).runCompact(home, stdin);
    case 'post-tool':
      return (await import('./post-tool.js')).runPostTool(home, args.harness, startedAt, stdin, deadlineMs);
  }
}

/**
 * The run of a hook that gave up (missed its deadline, or failed): only a pending pressure
 * notice is printed, never a partial block; a session start's heartbeat still records that it
 * printed no core.
 */
export function givenUpRun(event: HookEvent, reason: 'deadline' | 'internal', pending: Pending): HookRun {
  let stdout: string | null = null;
  if (event === 'user-prompt' && pending.notice !== null) {
    const fit = fitAdditionalContext(pending.notice, '');
    stdout = fit.text === null ? null : userPromptJson(fit.text);
  }
  return {
    stdout,
    heartbeat: {
      outcome: reason === 'deadline' ? 'degraded' : 'error',
      reason,
      ...(reason === 'deadline' && pending.turns !== undefined ? { turns: pending.turns } : {}),
      ...(event === 'session-start' ? sessionStartCoreFields(null) : {}),
    },
  };
}

/**
 * `brainstream hook <event>`: fails open. The kill switch exits at once; a missed deadline or
 * any error prints nothing harmful; every path but a usage error exits 0.
 */
export async function runHook(args: HookArgs, io: HookIo = processHookIo(), options: { deadlineMs?: number } = {}): Promise<number> {
  if (process.env.BRAINSTREAM_HOOKS === '0') return 0;
  if (args.event === null) {
    process.stderr.write(`brainstream: hook expects user-prompt, session-start, compact or post-tool, got ${JSON.stringify(args.rawEvent ?? '')}\n`);
    return 2;
  }
  const event = args.event;
  // A harness's deadline; an in-process caller that is not a harness, or a user on a slow
  // machine (who then raises the harness's own hook timeout to match), may allow more.
  const deadlineMs = options.deadlineMs ?? deadlineFromEnv(process.env.BRAINSTREAM_HOOK_DEADLINE_MS) ?? DEADLINE_MS[event];
  const startedAt = Date.now();
  const home = resolveHome(args.home);
  try {
    secureExistingHome(home);
  } catch (err) {
    // A home other users can get into is never used; the harness goes on without context.
    process.stderr.write(`brainstream: ${err instanceof BrainstreamError ? `${err.code}: ` : ''}${err instanceof Error ? err.message : String(err)}\n`);
    return 0;
  }
  const pending: Pending = { notice: null };
  let settled = false;
  const finish = (run: HookRun): void => {
    if (settled) return;
    settled = true;
    clearTimeout(net);
    if (run.stdout !== null) io.write(`${run.stdout}\n`);
    writeHeartbeat(home, { ts: new Date().toISOString(), event, ...run.heartbeat, duration_ms: Date.now() - startedAt });
  };
  let net: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    net = setTimeout(() => {
      finish(givenUpRun(event, 'deadline', pending));
      resolve();
    }, deadlineMs + NET_SLACK_MS[event]);
  });
  const work = runEvent(event, args, home, pending, startedAt, io.stdin, deadlineMs).then(finish, () => finish(givenUpRun(event, 'internal', pending)));
  await Promise.race([work, deadline]);
  return 0;
}

/** The process entry of the fast path: run, then exit without waiting on stray handles. */
export async function hookMain(args: HookArgs): Promise<never> {
  let code = 0;
  try {
    code = await runHook(args);
    // The answer is out; a hook never waits for serve, it starts one for the prompts to come.
    if (args.event !== null && process.env.BRAINSTREAM_HOOKS !== '0' && autostartEnabled()) await ensureServe(resolveHome(args.home), { wait: false });
  } catch {
    code = 0;
  }
  process.exit(code);
}
