import { logger } from '../logger.js';
import { sessionIdOf } from '../domain/session-id.js';
import { deliveryEvents } from '../turn-context/delivery-log.js';
import { ERRORS, type ResolveResult } from '../serve-client/protocol.js';
import { resolveReflex } from './reflex-block.js';
import type { ResolveParams } from '../serve-client/request-schemas.js';
import { knownSource, type ServeDeps } from './serve-deps.js';
import { serveSettings } from '../../streams/topology-settings.js';
import type { Connection } from './socket-server.js';

const NO_BLOCK: ResolveResult = { text: '', pointers: [] };

/**
 * `resolve`, the ambient reflex: the pointer block, or no block when the
 * switch is off or anything fails. Delivered pointers are logged on `reflex` after the answer.
 */
export async function handleResolve(req: ResolveParams, conn: Connection, deps: ServeDeps): Promise<void> {
  const sourceId = req.source_id ?? 'default';
  let result = NO_BLOCK;
  try {
    const index = await deps.pageIndex();
    if (!knownSource(index, sourceId)) {
      return conn.respond({ ok: false, error: ERRORS.unknownSource, message: `no source ${JSON.stringify(sourceId)} in this brain` });
    }
    const settings = serveSettings(deps.home);
    if (settings.reflex) {
      result = resolveReflex(index, {
        messages: req.messages,
        priorContext: req.prior_context ?? '',
        sourceId,
        windowTurns: settings.windowTurns,
        maxPointers: settings.maxPointers,
        lexicalArms: settings.lexicalArms,
        gazetteer: settings.gazetteer,
      });
    }
  } catch (err) {
    logger.warn({ err, op: 'resolve' }, 'reflex resolution failed; no block');
    result = NO_BLOCK;
  }
  await conn.respond({ ok: true, ...result });
  if (result.text !== '') deps.deliveries.record(deliveryEvents(result.pointers, 'reflex', sessionIdOf(req.session_id)));
}
