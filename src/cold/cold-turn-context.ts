import { pageJson } from '../context/render.js';
import type { Turn } from '../context/turn.js';
import { sessionIdOf } from '../domain/session-id.js';
import { deliveryEvents, hookChannel } from '../turn-context/delivery-log.js';
import { hookTurnEvent } from '../turn-context/hook-turn-event.js';
import type { TurnContextResult } from '../serve-client/protocol.js';
import { serveSettings, topologySettings } from '../../streams/topology-settings.js';
import { fitTurnBlock } from '../turn-context/turn-block.js';
import { assembleTurnContext } from '../turn-context/turn-context.js';
import { decideTurn } from '../../streams/decide-turns.js';
import { coldIndexFor } from './cold-index.js';
import { spoolEvents } from './spool.js';

export interface ColdTurnRequest {
  window: readonly Turn[];
  prior_context?: string;
  session_id?: string;
  source_id?: string;
  channel?: string;
  shown?: readonly string[];
  /** A tool turn (the post-tool hook): the tool's name; the last turn of `window` is its text. */
  tool?: string;
}

const NOTHING: TurnContextResult = { text: '', pointers: [], volunteered: [], degraded_reason: null };

/**
 * A hook's turn block when no serve answers: decided from the pages of the page-index snapshot
 * that the window could name, without hot facts (they live in the database). Null when the
 * snapshot is missing, behind the log or unreadable.
 *
 * A turn of a session is decided by the turn engine's own function, as a fresh turn (on itself
 * and the pages the harness already showed: the session's earlier turns are in the log, which is
 * not open here), and its turn event goes to the spool. The next owner of the brain numbers it,
 * appends it and lets the volunteer processor decide it the same way, so the log, `stats` and
 * `replay` hold what was delivered. A request without a session is decided on its window alone
 * and only its deliveries are spooled, as serve logs them.
 */
export function coldTurnContext(home: string, req: ColdTurnRequest): TurnContextResult | null {
  const priorContext = req.prior_context ?? '';
  const index = coldIndexFor(home, [...req.window.map((t) => t.text), priorContext]);
  if (index === null) return null;
  const sourceId = req.source_id ?? 'default';
  const channel = hookChannel(req.channel);
  const session = sessionIdOf(req.session_id);
  const settings = serveSettings(home);
  if (session !== null) {
    const event = hookTurnEvent({
      req: { kind: 'turn_context', window: [...req.window], prior_context: priorContext, session_id: session, source_id: sourceId, channel, shown: [...(req.shown ?? [])], tool: req.tool },
      sessionId: session,
      sourceId,
      channel,
      // Numbered when the brain next opens: the session's last number is in the log.
      turn: 0,
      settings,
      fresh: true,
    });
    if (event === null) return NOTHING;
    const decision = decideTurn(undefined, event, index, topologySettings(home));
    const fit = fitTurnBlock({ pointers: decision.pointers.map(pageJson), volunteered: decision.volunteered.map(pageJson), facts: [] });
    spoolQuietly(home, () => [event]);
    return { text: fit.text, pointers: fit.parts.pointers, volunteered: fit.parts.volunteered, degraded_reason: fit.trimmed ? 'budget_trimmed' : null };
  }
  const result = assembleTurnContext(index, {
    window: req.window,
    priorContext,
    sourceId,
    lexicalArms: settings.lexicalArms,
    gazetteer: settings.gazetteer,
    facts: [],
    // The rights every harness turn has: those of the agent's MCP caller.
    remote: true,
    shown: req.shown,
  });
  if (result.text !== '') spoolQuietly(home, () => [...deliveryEvents(result.pointers, channel, null), ...deliveryEvents(result.volunteered, channel, null)]);
  return result;
}

function spoolQuietly(home: string, events: () => Parameters<typeof spoolEvents>[1]): void {
  try {
    spoolEvents(home, events());
  } catch {
    // Delivery never waits on logging: a lost spool file loses the log lines, not the answer.
  }
}
