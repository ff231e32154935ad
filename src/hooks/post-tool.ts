import { sessionIdOf } from '../domain/session-id.js';
import type { Harness } from './hook-argv.js';
import { fitAdditionalContext, postToolJson } from './hook-output.js';
import { readHookStdin, type HookStdin } from './read-hook-stdin.js';
import { callServe } from './serve-call.js';
import { toolTurnText } from './tool-text.js';
import { fitTurnContextRequest } from './turn-context-request.js';
import { serveTimeout, USER_PROMPT_DEADLINE_MS, type HookRun } from './user-prompt.js';

/**
 * `hook post-tool` (Claude Code and Codex `PostToolUse`): the prose of the tool's input and
 * output becomes a `tool` turn of the session, decided by serve like any turn (its own gate and
 * cap, the session's already-surfaced pages excluded); the pages it pushes come back as
 * `additionalContext`; with no serve up, from the page snapshot (the cold path). Without a
 * session there is no turn to add to: nothing is printed.
 */
export async function runPostTool(home: string, harness: Harness, startedAt: number, stdin: HookStdin, deadlineMs = USER_PROMPT_DEADLINE_MS): Promise<HookRun> {
  const input = await readHookStdin(undefined, stdin);
  if (input === null) return { stdout: null, heartbeat: { outcome: 'degraded', reason: 'no_stdin' } };
  const sessionId = sessionIdOf(input.session_id);
  if (sessionId === null) return { stdout: null, heartbeat: { outcome: 'ok', reason: 'no_session' } };
  const tool = typeof input.tool_name === 'string' && input.tool_name !== '' ? input.tool_name.slice(0, 128) : 'unknown';
  const text = toolTurnText(tool, input.tool_input, input.tool_response);
  if (text === '') return { stdout: null, heartbeat: { outcome: 'ok', reason: 'empty_block', turns: 0 } };
  const source = process.env.BRAINSTREAM_SOURCE;
  const payload = fitTurnContextRequest({
    kind: 'turn_context',
    window: [{ role: 'tool', text }],
    prior_context: '',
    session_id: sessionId,
    ...(source ? { source_id: source } : {}),
    channel: harness,
    tool,
  });
  let reply = await callServe(home, payload, serveTimeout(deadlineMs, deadlineMs - (Date.now() - startedAt)));
  if (!reply.ok && reply.reason === 'no_serve') {
    // Nobody serves the brain: the tool turn is decided from the page snapshot, as a prompt is.
    const { coldTurnContext } = await import('../cold/cold-turn-context.js');
    const cold = coldTurnContext(home, payload);
    if (cold) reply = { ok: true, body: { ...cold, degraded_reason: cold.degraded_reason ?? 'cold' } };
  }
  if (!reply.ok) return { stdout: null, heartbeat: { outcome: 'degraded', reason: reply.reason, turns: 1 } };
  const block = typeof reply.body.text === 'string' ? reply.body.text : '';
  const serverReason = typeof reply.body.degraded_reason === 'string' ? reply.body.degraded_reason : undefined;
  if (block === '') return { stdout: null, heartbeat: { outcome: serverReason === 'server_budget' ? 'degraded' : 'ok', reason: serverReason ?? 'empty_block', turns: 1 } };
  const fit = fitAdditionalContext(null, block);
  return {
    stdout: fit.text === null ? null : postToolJson(fit.text),
    heartbeat: { outcome: fit.text === null ? 'degraded' : 'ok', ...(serverReason ? { reason: serverReason } : {}), turns: 1 },
  };
}
