import { ERRORS } from './protocol.js';
import type { TurnContextResult } from './protocol.js';
import type { TurnContextParams } from './request-schemas.js';
import { knownSource, type ServeDeps } from './serve-deps.js';
import { serveSettings } from './serve-settings.js';
import type { Connection } from './socket-server.js';
import { assembleTurnContext } from './turn-context.js';
import { sessionIdOf } from '../domain/event-schemas.js';
import { deliveryEvents, hookChannel } from './delivery-log.js';

/** Past this, the turn gets an empty block (`server_budget`) rather than a late one. */
export const ASSEMBLY_BUDGET_MS = 400;

const OVER_BUDGET: TurnContextResult = { text: '', pointers: [], volunteered: [], degraded_reason: 'server_budget' };

/**
 * `turn_context` (push-context §7.4.2–7.4.3): assemble within the budget, answer, and only then log
 * the delivered pages — on the claimed hook channel, else `claude-code`.
 */
export async function handleTurnContext(req: TurnContextParams, conn: Connection, deps: ServeDeps): Promise<void> {
  const started = performance.now();
  const sourceId = req.source_id ?? 'default';
  const sessionId = sessionIdOf(req.session_id);
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ASSEMBLY_BUDGET_MS);
  });
  const work = (async (): Promise<TurnContextResult | 'unknown_source'> => {
    const index = await deps.pageIndex();
    if (!knownSource(index, sourceId)) return 'unknown_source';
    const settings = serveSettings(deps.home);
    const facts = await deps.hotFacts(sourceId, sessionId);
    return assembleTurnContext(index, {
      window: req.window,
      priorContext: req.prior_context ?? '',
      sourceId,
      lexicalArms: settings.lexicalArms,
      gazetteer: settings.gazetteer,
      facts,
    });
  })();
  // When the budget wins, a later failure of the abandoned work must not go unhandled.
  work.catch(() => {});
  let result: TurnContextResult | 'unknown_source' | null;
  try {
    result = await Promise.race([work, budget]);
  } finally {
    clearTimeout(timer);
  }
  if (result === 'unknown_source') {
    return conn.respond({ ok: false, error: ERRORS.unknownSource, message: `no source ${JSON.stringify(sourceId)} in this brain` });
  }
  if (result === null || performance.now() - started > ASSEMBLY_BUDGET_MS) result = OVER_BUDGET;
  await conn.respond({ ok: true, ...result });
  if (result.text === '') return;
  const channel = hookChannel(req.channel);
  deps.deliveries.record([...deliveryEvents(result.pointers, channel, sessionId), ...deliveryEvents(result.volunteered, channel, sessionId)]);
}
