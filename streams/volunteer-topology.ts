import { from, groupBy, mergeMap, scan, map, toArray, lastValueFrom, type OperatorFunction } from 'rxjs';
import { clampWindowTurns } from '../src/context/knobs.js';
import type { PageIndex } from '../src/context/page-index.js';
import type { VolunteeredPage } from '../src/context/volunteer.js';
import { createWatchSession, stepWatchSession, type WatchSessionState } from '../src/context/watch-session.js';
import type { Envelope } from '../src/domain/events.js';

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

/**
 * turns → keyed per session → sliding window → extract → resolve → gate: the volunteer
 * decision as an RxJS operator. Each session's state is a `scan` seeded from the store, so a
 * decision is the same whether the session ran in one process or moved between processes.
 */
export function volunteerTopology(index: PageIndex, store: SessionStore, settings: TopologySettings): OperatorFunction<TurnEvent, TurnDecision> {
  return (turns) =>
    turns.pipe(
      groupBy((e) => e.data.session_id),
      mergeMap((session) => {
        const seed = store.get(session.key) ?? null;
        return session.pipe(
          scan<TurnEvent, TurnDecision | null, TurnDecision | null>((prev, event) => {
            const s = event.data.settings ?? {};
            // The window size of this turn applies to a restored session too (a restart with a new --window-turns).
            const windowTurns = clampWindowTurns(s.window_turns ?? settings.windowTurns);
            const current = prev?.state ?? seed ?? createWatchSession(windowTurns);
            const state = current.windowTurns === windowTurns ? current : { ...current, windowTurns };
            const step = stepWatchSession(state, { role: event.data.role, text: event.data.text }, index, {
              scope: [event.data.source_id],
              remote: settings.remote || s.remote === true,
              minConfidence: s.min_confidence ?? settings.minConfidence,
              maxPages: s.max_pages ?? settings.maxPages,
              lexicalArms: s.lexical_arms ?? settings.lexicalArms,
              gazetteer: settings.gazetteer,
              turn: event.data.turn,
              ...(s.pointers !== undefined ? { pointers: s.pointers } : {}),
              ...(event.data.shown !== undefined ? { shown: event.data.shown } : {}),
            });
            return { event, turn: step.turn, volunteered: step.volunteered, pointers: step.pointers, state: step.state };
          }, null),
          map((d) => {
            store.set(session.key, d!.state);
            return d!;
          }),
        );
      }),
    );
}

/** Runs a finite batch through the topology; decisions come back in the batch's order. */
export async function decideBatch(events: readonly TurnEvent[], index: PageIndex, store: SessionStore, settings: TopologySettings): Promise<TurnDecision[]> {
  if (events.length === 0) return [];
  const decisions = await lastValueFrom(from(events).pipe(volunteerTopology(index, store, settings), toArray()));
  const order = new Map(events.map((e, i) => [e, i]));
  return decisions.sort((a, b) => order.get(a.event)! - order.get(b.event)!);
}
