import { clampWindowTurns } from '../src/context/knobs.js';
import type { PageIndex } from '../src/context/page-index.js';
import type { VolunteeredPage } from '../src/context/volunteer.js';
import { createWatchSession, stepWatchSession, type WatchSessionState } from '../src/context/watch-session.js';
import type { Channel } from '../src/domain/event-schemas.js';
import type { Envelope } from '../src/domain/events.js';
import { volunteeredEvent } from '../src/domain/volunteered-event.js';
import type { LearnedSnapshot } from '../src/learning/learning-rule.js';

export type TurnEvent = Envelope<'turn.appended'>;

/** Knobs of one decision; the event's own session settings win over these defaults. */
export interface TopologySettings {
  windowTurns: number;
  minConfidence: number;
  maxPages: number;
  lexicalArms: boolean;
  gazetteer: boolean;
  /** Remote traffic (Kafka): private pages never resolve. */
  remote: boolean;
  /**
   * The learning gate (`retrieval.reflex.learning`): the processor reads the learned state
   * before each batch. Absent: off.
   */
  learning?: boolean;
}

export interface TurnDecision {
  event: TurnEvent;
  turn: number;
  volunteered: VolunteeredPage[];
  /** Ungated pointers the turn asked for (`settings.pointers`), delivered before `volunteered`. */
  pointers: VolunteeredPage[];
  state: WatchSessionState;
}

/** Where per-session state lives between batches (and across restarts, via its owner). */
export interface SessionStore {
  get(sessionId: string): WatchSessionState | undefined;
  set(sessionId: string, state: WatchSessionState): void;
}

/** What a batch of turns decided: one decision per turn, and the events to log for them. */
export interface DecidedTurns {
  decisions: TurnDecision[];
  events: Envelope<'page.volunteered'>[];
}

/**
 * One turn of its session: slide the window, extract, resolve, gate. The window size of this
 * turn applies to a restored session too (a restart with a new --window-turns).
 */
export function decideTurn(state: WatchSessionState | undefined, event: TurnEvent, index: PageIndex, settings: TopologySettings, learned?: LearnedSnapshot): TurnDecision {
  const s = event.data.settings ?? {};
  const windowTurns = clampWindowTurns(s.window_turns ?? settings.windowTurns);
  const current = state ?? createWatchSession(windowTurns);
  const sized = current.windowTurns === windowTurns ? current : { ...current, windowTurns };
  const step = stepWatchSession(sized, { role: event.data.role, text: event.data.text }, index, {
    scope: [event.data.source_id],
    remote: settings.remote || s.remote === true,
    minConfidence: s.min_confidence ?? settings.minConfidence,
    maxPages: s.max_pages ?? settings.maxPages,
    lexicalArms: s.lexical_arms ?? settings.lexicalArms,
    gazetteer: settings.gazetteer,
    turn: event.data.turn,
    ...(s.pointers !== undefined ? { pointers: s.pointers } : {}),
    ...(event.data.shown !== undefined ? { shown: event.data.shown } : {}),
    ...(learned !== undefined ? { learned } : {}),
    ...(s.fresh === true ? { fresh: true } : {}),
  });
  return { event, turn: step.turn, volunteered: step.volunteered, pointers: step.pointers, state: step.state };
}

/**
 * The turn engine's decision: turns in log order → per session, each turn decided on the state
 * its previous turn left → decisions in the batch's order, and one `page.volunteered` event per
 * volunteered page. A decision is the same whether a session ran in one process or moved
 * between processes, because its state lives in `sessions`. `learned`: the learning gate's
 * snapshot, taken before the batch (absent: the static gate).
 */
export function decideTurns(
  turns: readonly TurnEvent[],
  index: PageIndex,
  sessions: SessionStore,
  settings: TopologySettings,
  channel: Channel,
  learned?: LearnedSnapshot,
): DecidedTurns {
  const decisions: TurnDecision[] = [];
  const events: Envelope<'page.volunteered'>[] = [];
  for (const event of turns) {
    const sessionId = event.data.session_id;
    const decision = decideTurn(sessions.get(sessionId), event, index, settings, learned);
    sessions.set(sessionId, decision.state);
    decisions.push(decision);
    // A harness turn names its own channel; pointers are logged before the gated pages.
    const logged = event.data.channel ?? channel;
    for (const page of [...decision.pointers, ...decision.volunteered]) {
      events.push(volunteeredEvent(page, { channel: logged, sessionId, turn: decision.turn, at: event.at }));
    }
  }
  return { decisions, events };
}
