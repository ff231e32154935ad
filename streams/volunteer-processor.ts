import type { Db } from '../src/db/db.js';
import type { Envelope } from '../src/domain/events.js';
import type { Channel } from '../src/domain/event-schemas.js';
import type { WatchSessionState } from '../src/context/watch-session.js';
import type { PageIndex } from '../src/context/page-index.js';
import type { Consumer } from '../src/event-log/consumer.js';
import type { LoggedEvent } from '../src/event-log/event-log.js';
import type { LearnedSnapshot } from '../src/learning/learning-rule.js';
import { readLearnedSnapshot } from '../projections/learning-projection.js';
import { loadSessionStates, pendingTurnNumber, saveSessionStates, storedTurnNumber } from '../src/event-log/session-state.js';
import { LruMap } from './lru-map.js';
import { decideTurns, type SessionStore, type TopologySettings, type TurnDecision, type TurnEvent } from './decide-turns.js';

export const VOLUNTEER_PROCESSOR = 'processor.volunteer';

/** Sessions a processor keeps in memory by default; the least recently used beyond it reload from `session_state`. */
const DEFAULT_CACHED_SESSIONS = 1000;

/**
 * Session state persisted in `session_state`, with the recently used sessions cached in memory
 * (bounded: a long-running serve sees an unbounded number of sessions over its life).
 */
class PersistedSessions implements SessionStore {
  private readonly cache: LruMap<string, WatchSessionState>;
  private readonly dirty = new Set<string>();
  constructor(
    private readonly processor: string,
    capacity: number,
  ) {
    this.cache = new LruMap(capacity);
  }

  get size(): number {
    return this.cache.size;
  }

  get(sessionId: string): WatchSessionState | undefined {
    return this.cache.get(sessionId);
  }
  set(sessionId: string, state: WatchSessionState): void {
    this.cache.set(sessionId, state);
    this.dirty.add(sessionId);
  }

  async load(tx: Db, sessionIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(sessionIds)].filter((s) => !this.cache.has(s));
    if (missing.length === 0) return;
    const rows = await loadSessionStates<WatchSessionState>(tx, this.processor, missing);
    for (const r of rows) this.cache.set(r.session_id, r.state);
  }

  /** Writes every changed session in one statement. */
  async flush(tx: Db, at: string): Promise<void> {
    if (this.dirty.size === 0) return this.cache.trim();
    const rows = [...this.dirty].map((sessionId) => ({ session_id: sessionId, state: this.cache.get(sessionId) }));
    await saveSessionStates(tx, this.processor, rows, at);
    this.dirty.clear();
    // Only now: a session evicted before its state was written would lose that state.
    this.cache.trim();
  }

  /** After a failed transaction the cache may hold states that were never committed. */
  reset(): void {
    this.cache.clear();
    this.dirty.clear();
  }
}

/** Where volunteered events go, inside the processor's transaction: the embedded log, or the Kafka outbox. */
export interface VolunteeredSink {
  append(events: readonly Envelope[], tx: Db): Promise<void>;
}

/** The page index a processor resolves against, brought up to date before each batch (PageIndexFollower, the Kafka page table). */
export interface PageTable {
  readonly index: PageIndex;
  refresh(tx: Db): Promise<void>;
}

export interface VolunteerProcessorOptions {
  log: VolunteeredSink;
  pages: PageTable;
  settings: () => TopologySettings;
  channel?: Channel;
  name?: string;
  /** Sessions kept in memory (default DEFAULT_CACHED_SESSIONS). */
  maxCachedSessions?: number;
  /** Where the learning gate's snapshot comes from (default: the learning projection's tables, in the batch's transaction). */
  learned?: (tx: Db) => Promise<LearnedSnapshot>;
}

/** The last turn number a processor decided for a session (0 when it has none): a restarted `watch` continues from it. */
export async function lastDecidedTurn(db: Db, sessionId: string, processor: string = VOLUNTEER_PROCESSOR): Promise<number> {
  const turn = Number((await storedTurnNumber(db, processor, sessionId)) ?? 0);
  return Number.isInteger(turn) && turn > 0 ? turn : 0;
}

/**
 * The last turn number of a session in the log: the processor's, or a later one appended but not
 * decided yet (a turn handed over by the cold path, appended when the brain opened). The next
 * turn of the session takes the number after it.
 */
export async function lastLoggedTurn(db: Db, sessionId: string, processor: string = VOLUNTEER_PROCESSOR): Promise<number> {
  const decided = await lastDecidedTurn(db, sessionId, processor);
  const pending = Number((await pendingTurnNumber(db, sessionId, processor)) ?? 0);
  return Math.max(decided, Number.isInteger(pending) && pending > 0 ? pending : 0);
}

/** The volunteer processor: a log consumer over turns that returns its decisions. */
export interface VolunteerProcessor extends Consumer<TurnDecision> {
  apply(tx: Db, events: readonly LoggedEvent[]): Promise<TurnDecision[]>;
  /** Sessions held in memory now. */
  cachedSessions(): number;
}

/**
 * The streaming volunteer decision as a log consumer: turns in, volunteered events out, appended
 * in the same transaction as the session state and the checkpoint (the embedded outbox). `apply`
 * returns the batch's decisions (what `watch` prints); `catchUp` hands back those of the batches
 * that committed.
 */
export function createVolunteerProcessor(options: VolunteerProcessorOptions): VolunteerProcessor {
  const name = options.name ?? VOLUNTEER_PROCESSOR;
  const channel = options.channel ?? 'watch';
  const sessions = new PersistedSessions(name, options.maxCachedSessions ?? DEFAULT_CACHED_SESSIONS);
  return {
    name,
    topics: ['turns'],
    async apply(tx: Db, events: readonly LoggedEvent[]): Promise<TurnDecision[]> {
      const turns = events.map((e) => e.event).filter((e): e is TurnEvent => e.type === 'turn.appended');
      if (turns.length === 0) return [];
      try {
        await options.pages.refresh(tx);
        await sessions.load(tx, turns.map((t) => t.data.session_id));
        const settings = options.settings();
        // One snapshot per batch, read before deciding: the decision itself never queries.
        const learned = settings.learning === true ? await (options.learned ?? readLearnedSnapshot)(tx) : undefined;
        const decided = decideTurns(turns, options.pages.index, sessions, settings, channel, learned);
        await options.log.append(decided.events, tx);
        await sessions.flush(tx, turns.at(-1)!.at);
        return decided.decisions;
      } catch (err) {
        sessions.reset();
        throw err;
      }
    },
    cachedSessions: () => sessions.size,
  };
}
