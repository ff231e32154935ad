import { pageJson } from '../context/render.js';
import { ERRORS } from '../serve-client/protocol.js';
import type { TurnContextResult } from '../serve-client/protocol.js';
import type { TurnContextParams } from '../serve-client/request-schemas.js';
import { knownSource, type ServeDeps } from './serve-deps.js';
import { serveSettings } from '../../streams/topology-settings.js';
import type { Connection } from './socket-server.js';
import { assembleTurnContext } from '../turn-context/turn-context.js';
import { sessionIdOf } from '../domain/session-id.js';
import { fitTurnBlock } from '../turn-context/turn-block.js';
import { deliveryEvents, hookChannel } from '../turn-context/delivery-log.js';
import { hookTurnEvent } from '../turn-context/hook-turn-event.js';

/** Past this, the turn gets an empty block (`server_budget`) rather than a late one. */
export const ASSEMBLY_BUDGET_MS = 400;

const OVER_BUDGET: TurnContextResult = { text: '', pointers: [], volunteered: [], degraded_reason: 'server_budget' };
const NOTHING: TurnContextResult = { text: '', pointers: [], volunteered: [], degraded_reason: null };

type Assembled = { result: TurnContextResult; logged: boolean } | 'unknown_source';

/**
 * A harness turn with a session: appended to the log as a turn of that session (channel = the
 * harness) and decided by the one volunteer processor, which logs what it pushes. The block is
 * that decision: pointers to the pages the prompt names, the gated pages, then hot facts (not
 * for tool turns).
 */
async function decideLoggedTurn(req: TurnContextParams, deps: ServeDeps, sourceId: string, sessionId: string): Promise<TurnContextResult> {
  const settings = serveSettings(deps.home);
  const event = hookTurnEvent({ req, sessionId, sourceId, channel: hookChannel(req.channel), turn: await deps.hookSessions.next(sessionId), settings });
  if (event === null) return NOTHING;
  const facts = event.data.role === 'tool' ? [] : await deps.hotFacts(sourceId, sessionId);
  const [decision] = await deps.turns.submitTurns([event]);
  const fit = fitTurnBlock({ pointers: (decision?.pointers ?? []).map(pageJson), volunteered: (decision?.volunteered ?? []).map(pageJson), facts });
  return { text: fit.text, pointers: fit.parts.pointers, volunteered: fit.parts.volunteered, degraded_reason: fit.trimmed ? 'budget_trimmed' : null };
}

/**
 * `turn_context`: assemble within the budget and answer. A request naming its session is a turn
 * of that session in the log (see decideLoggedTurn); one without is decided on its window alone
 * and its delivered pages are logged after the answer — on the claimed hook channel, else
 * `claude-code`.
 */
export async function handleTurnContext(req: TurnContextParams, conn: Connection, deps: ServeDeps): Promise<void> {
  const started = performance.now();
  const sourceId = req.source_id ?? 'default';
  const sessionId = sessionIdOf(req.session_id);
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deps.turnBudgetMs);
  });
  const work = (async (): Promise<Assembled> => {
    const index = await deps.pageIndex();
    if (!knownSource(index, sourceId)) return 'unknown_source';
    if (sessionId !== null) return { result: await decideLoggedTurn(req, deps, sourceId, sessionId), logged: true };
    const settings = serveSettings(deps.home);
    const facts = await deps.hotFacts(sourceId, sessionId);
    const result = assembleTurnContext(index, {
      window: req.window,
      priorContext: req.prior_context ?? '',
      sourceId,
      lexicalArms: settings.lexicalArms,
      gazetteer: settings.gazetteer,
      facts,
    });
    return { result, logged: false };
  })();
  // When the budget wins, a later failure of the abandoned work must not go unhandled.
  work.catch(() => {});
  let assembled: Assembled | null;
  try {
    assembled = await Promise.race([work, budget]);
  } finally {
    clearTimeout(timer);
  }
  if (assembled === 'unknown_source') {
    return conn.respond({ ok: false, error: ERRORS.unknownSource, message: `no source ${JSON.stringify(sourceId)} in this brain` });
  }
  const result = assembled === null || performance.now() - started > deps.turnBudgetMs ? OVER_BUDGET : assembled.result;
  await conn.respond({ ok: true, ...result });
  if (result.text === '' || assembled?.logged !== false) return;
  const channel = hookChannel(req.channel);
  deps.deliveries.record([...deliveryEvents(result.pointers, channel, sessionId), ...deliveryEvents(result.volunteered, channel, sessionId)]);
}
