import type { WatchSessionState } from '../context/watch-session.js';
import { SessionTurns, type SessionTurnsOptions } from '../../streams/session-turns.js';
import { decideTurns, type SessionStore, type TopologySettings, type TurnDecision } from '../../streams/decide-turns.js';
import { ColdSessionIndex } from './cold-index.js';
import { spoolEvents } from './spool.js';

/**
 * The first turns of a `watch` session while the serve it started is still opening the
 * database: each batch of lines is decided by the turn engine's own function on the pages of
 * the page-index snapshot the session's window could name, and its turn events, numbered, go to
 * the spool before anything is printed. Serve appends them and its volunteer processor decides
 * them again — the same function, the same turns, the same pages — so the log, `stats` and
 * `replay` hold what was printed; the session then goes on in serve from the next number.
 */
export class ColdWatch {
  private readonly sessions = new Map<string, WatchSessionState>();
  private readonly store: SessionStore = {
    get: (id) => this.sessions.get(id),
    set: (id, state) => void this.sessions.set(id, state),
  };
  private turns: SessionTurns;
  private readonly pages: ColdSessionIndex;
  private lastSpooledAt = 0;

  constructor(
    private readonly home: string,
    private readonly options: SessionTurnsOptions,
    private readonly topology: TopologySettings,
  ) {
    this.turns = new SessionTurns(options);
    this.pages = new ColdSessionIndex(home);
  }

  /** The number of the last turn handed over so far. */
  get lastTurn(): number {
    return this.turns.lastTurn;
  }

  /**
   * Decides `lines` (a batch, in order) and spools their turns; returns the decisions to print.
   * Null when the cold path can no longer answer — the snapshot is gone or behind the log, or
   * the spool cannot be written — and then nothing of the batch was taken: its lines are serve's.
   */
  decide(lines: readonly string[]): TurnDecision[] | null {
    const sessionId = this.options.sessionId;
    const before = { turn: this.turns.lastTurn, state: this.sessions.get(sessionId) };
    const rewind = (): null => {
      this.turns = new SessionTurns({ ...this.options, lastTurn: before.turn });
      if (before.state) this.sessions.set(sessionId, before.state);
      else this.sessions.delete(sessionId);
      return null;
    };
    const events = lines.map((line) => this.turns.next(line)).filter((e) => e !== null);
    if (events.length === 0) return [];
    const index = this.pages.pagesFor([...(before.state?.window ?? []).map((t) => t.text), ...events.map((e) => e.data.text)]);
    if (index === null) return rewind();
    const { decisions } = decideTurns(events, index, this.store, this.topology, 'watch');
    try {
      // Files are appended in name order, which starts with this time: strictly increasing keeps the turns in order.
      this.lastSpooledAt = Math.max(Date.now(), this.lastSpooledAt + 1);
      spoolEvents(this.home, events, this.lastSpooledAt);
    } catch {
      return rewind();
    }
    return decisions;
  }
}
