import type { Turn } from '../context/turn.js';
import { sessionIdOf } from '../domain/session-id.js';
import type { Harness } from './hook-argv.js';
import { fitAdditionalContext, userPromptJson } from './hook-output.js';
import { readHookTranscript } from './hook-transcript.js';
import { shownSlugs } from './prior-context.js';
import type { HeartbeatEntry } from './heartbeat.js';
import { readHookStdin, type HookStdin } from './read-hook-stdin.js';
import { callServe } from './serve-call.js';
import { fitTurnContextRequest } from './turn-context-request.js';

export const USER_PROMPT_DEADLINE_MS = 800;
export const TURN_CONTEXT_TIMEOUT_MS = 600;

/** How long to wait on serve: 600 ms of an 800 ms deadline (the rest is the hook's own work), never past the deadline. */
export const serveTimeout = (deadlineMs: number, remaining: number): number =>
  Math.max(1, Math.min(TURN_CONTEXT_TIMEOUT_MS + Math.max(0, deadlineMs - USER_PROMPT_DEADLINE_MS), remaining));

export interface HookRun {
  /** What to print on stdout (one line), or null for nothing. */
  stdout: string | null;
  heartbeat: Omit<HeartbeatEntry, 'ts' | 'event' | 'duration_ms'>;
}

/** Whatever is decided so far, so a missed deadline can still print the pending notice. */
export interface Pending {
  notice: string | null;
  turns?: number;
}

/** The save-before-compaction notice, or null (never fails the hook). */
async function decideNotice(home: string, input: Record<string, unknown>, usageEntries: readonly unknown[]): Promise<string | null> {
  try {
    const { hookPressureNotice } = await import('./hook-pressure.js');
    return hookPressureNotice(home, input, usageEntries, new Date());
  } catch {
    return null;
  }
}

/**
 * `hook user-prompt`: read the harness JSON and the
 * transcript, decide the pressure notice, ask serve for the turn block, print the harness JSON.
 */
export async function runUserPrompt(home: string, harness: Harness, pending: Pending, startedAt: number, stdin: HookStdin, deadlineMs = USER_PROMPT_DEADLINE_MS): Promise<HookRun> {
  const input = await readHookStdin(undefined, stdin);
  if (input === null) return { stdout: null, heartbeat: { outcome: 'degraded', reason: 'no_stdin' } };
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  const out = (block: string): string | null => {
    const fit = fitAdditionalContext(pending.notice, block);
    return fit.text === null ? null : userPromptJson(fit.text);
  };
  const read = readHookTranscript(input.transcript_path, harness, prompt);
  // The transcript only adds context: without it (the first prompt of a new session has none
  // yet) the block is decided on the prompt alone, and the heartbeat says why.
  const transcript = read.ok ? read : { usageEntries: [], turns: [], priorContext: '' };
  const unread = read.ok ? {} : { transcript: read.reason };

  const window: Turn[] = [...transcript.turns];
  if (prompt.trim() !== '') window.push({ role: 'user', text: prompt.trim() });
  pending.turns = window.length;

  if (window.length === 0) {
    pending.notice = await decideNotice(home, input, transcript.usageEntries);
    return { stdout: out(''), heartbeat: { outcome: 'ok', reason: 'empty_block', turns: 0, ...unread } };
  }
  const remaining = deadlineMs - (Date.now() - startedAt);
  const source = process.env.BRAINSTREAM_SOURCE;
  const sessionId = sessionIdOf(input.session_id);
  const payload = fitTurnContextRequest({
    kind: 'turn_context',
    window,
    prior_context: transcript.priorContext,
    ...(sessionId !== null ? { session_id: sessionId } : {}),
    ...(source ? { source_id: source } : {}),
    channel: harness,
    shown: shownSlugs(transcript.priorContext),
  });
  const replying = callServe(home, payload, serveTimeout(deadlineMs, remaining));
  // The notice is decided while serve assembles the block: its modules load during the wait.
  pending.notice = await decideNotice(home, input, transcript.usageEntries);
  let reply = await replying;
  const turns = window.length;
  if (!reply.ok && reply.reason === 'no_serve') {
    // Nobody serves the brain: decide from the page snapshot (the cold path) rather than say nothing.
    const { coldTurnContext } = await import('../cold/cold-turn-context.js');
    const cold = coldTurnContext(home, payload);
    if (cold) reply = { ok: true, body: { ...cold, degraded_reason: cold.degraded_reason ?? 'cold' } };
  }
  if (!reply.ok) return { stdout: out(''), heartbeat: { outcome: 'degraded', reason: reply.reason, turns, ...unread } };

  const text = typeof reply.body.text === 'string' ? reply.body.text : '';
  const serverReason = typeof reply.body.degraded_reason === 'string' ? reply.body.degraded_reason : undefined;
  if (text === '') {
    const reason = serverReason ?? 'empty_block';
    return { stdout: out(''), heartbeat: { outcome: serverReason === 'server_budget' ? 'degraded' : 'ok', reason, turns, ...unread } };
  }
  const fit = fitAdditionalContext(pending.notice, text);
  const reason = fit.blockDropped ? 'over_cap' : serverReason;
  return {
    stdout: fit.text === null ? null : userPromptJson(fit.text),
    heartbeat: { outcome: fit.blockDropped ? 'degraded' : 'ok', ...(reason ? { reason } : {}), turns, ...unread },
  };
}
