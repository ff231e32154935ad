import type { Turn } from '../context/turn.js';
import { sessionIdOf } from '../domain/event-schemas.js';
import { deliveryEvents, hookChannel } from '../serve/delivery-log.js';
import type { TurnContextResult } from '../serve/protocol.js';
import { serveSettings } from '../serve/serve-settings.js';
import { assembleTurnContext } from '../serve/turn-context.js';
import { coldIndexFor } from './cold-index.js';
import { spoolEvents } from './spool.js';

export interface ColdTurnRequest {
  window: readonly Turn[];
  prior_context?: string;
  session_id?: string;
  source_id?: string;
  channel?: string;
  shown?: readonly string[];
}

/**
 * The prompt hook's turn block when no serve answers: the same decision functions serve runs,
 * with the agent's MCP caller rights, over the pages of the page-index snapshot that the window
 * could name, without hot facts (they live in the database). The delivered pages are spooled
 * for the next owner of the brain to log as deliveries of the session (the prompt is not logged
 * as a numbered turn: its number comes from the log, which is not open here). Null when the
 * snapshot is missing, behind the log or unreadable.
 */
export function coldTurnContext(home: string, req: ColdTurnRequest): TurnContextResult | null {
  const priorContext = req.prior_context ?? '';
  const index = coldIndexFor(home, [...req.window.map((t) => t.text), priorContext]);
  if (index === null) return null;
  const settings = serveSettings(home);
  const result = assembleTurnContext(index, {
    window: req.window,
    priorContext,
    sourceId: req.source_id ?? 'default',
    lexicalArms: settings.lexicalArms,
    gazetteer: settings.gazetteer,
    facts: [],
    // The rights every harness turn has: those of the agent's MCP caller.
    remote: true,
    shown: req.shown,
  });
  if (result.text !== '') {
    const channel = hookChannel(req.channel);
    const session = sessionIdOf(req.session_id);
    try {
      spoolEvents(home, [...deliveryEvents(result.pointers, channel, session), ...deliveryEvents(result.volunteered, channel, session)]);
    } catch {
      // Delivery never waits on logging: a lost spool file loses the log lines, not the answer.
    }
  }
  return result;
}
