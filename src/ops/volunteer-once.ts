import type { Brain } from '../brain/brain.js';
import type { Caller } from '../caller.js';
import type { PageIndex } from '../context/page-index.js';
import { parseWindowText } from '../context/parse-window.js';
import { clampWindowTurns } from '../context/knobs.js';
import { volunteer, type VolunteeredPage } from '../context/volunteer.js';
import type { Channel } from '../domain/event-schemas.js';
import { sessionIdOf } from '../domain/session-id.js';
import type { Envelope } from '../domain/events.js';
import { volunteeredEvent } from '../domain/volunteered-event.js';
import type { LearnedSnapshot } from '../learning/learning-rule.js';
import { logger } from '../logger.js';
import { readLearnedSnapshot } from '../../projections/learning-projection.js';

export interface OneShotRequest {
  window: string;
  priorContext?: string;
  maxPages?: unknown;
  minConfidence?: unknown;
  /** Keep the last N parsed turns (clamped 1..64); absent → all. */
  windowTurns?: number;
  sessionId?: string | null;
  turn?: number | null;
  lexicalArms: boolean;
  gazetteer: boolean;
  channel?: Channel;
  /** The learning gate (`retrieval.reflex.learning`): decide with the learned state of the brain. */
  learning?: boolean;
}

export interface OneShotResult {
  pages: VolunteeredPage[];
  windowTurns: number;
}

/**
 * The one-shot decision: parse the window, decide on `index`, and the volunteered events to log.
 * Pure: the caller logs the events (to the brain, or to the spool on the cold path).
 */
export function decideOneShot(
  index: PageIndex,
  caller: Caller,
  req: OneShotRequest,
  learned?: LearnedSnapshot,
): OneShotResult & { events: Envelope<'page.volunteered'>[] } {
  let turns = parseWindowText(req.window);
  if (req.windowTurns !== undefined) turns = turns.slice(-clampWindowTurns(req.windowTurns));
  const scope = caller.kind === 'remote' ? (caller.grant && caller.grant.length > 0 ? caller.grant : [caller.source]) : [caller.source];
  const pages = volunteer(turns, index, {
    scope,
    remote: caller.kind === 'remote',
    priorContext: req.priorContext,
    maxPages: req.maxPages,
    minConfidence: req.minConfidence,
    lexicalArms: req.lexicalArms,
    gazetteer: req.gazetteer,
    ...(learned ? { learned } : {}),
  });
  return { pages, windowTurns: turns.length, events: pages.map((p) => oneShotEvent(p, req)) };
}

/**
 * The one-shot op: decide, then log one volunteered event per page. Logging is best-effort: a
 * failure is logged and never fails the call.
 */
export async function volunteerOnce(brain: Brain, index: PageIndex, caller: Caller, req: OneShotRequest): Promise<OneShotResult> {
  const learned = req.learning === true ? await readLearnedSnapshot(brain.db) : undefined;
  const { pages, windowTurns, events } = decideOneShot(index, caller, req, learned);
  if (events.length > 0) {
    try {
      await brain.commit(events);
    } catch (err) {
      logger.warn({ err, op: 'volunteer_context' }, 'could not log volunteered pages');
    }
  }
  return { pages, windowTurns };
}

/** A one-shot answer shows no rendering: its events carry the decision only. */
function oneShotEvent(p: VolunteeredPage, req: OneShotRequest): Envelope<'page.volunteered'> {
  const { source_id, slug, confidence, arm, rationale } = p;
  return volunteeredEvent({ source_id, slug, confidence, arm, rationale }, { channel: req.channel ?? 'op', sessionId: sessionIdOf(req.sessionId), turn: req.turn ?? null });
}
