import type { Db } from '../db/db.js';
import { LruMap } from '../../streams/lru-map.js';
import { lastLoggedTurn } from '../../streams/volunteer-processor.js';

/** Sessions whose last turn number serve keeps in memory; others are read back from the log. */
const NUMBERED_SESSIONS = 1000;

/**
 * Turn numbers of harness sessions. serve appends their turns, so it numbers them: the first
 * turn of a session it has not seen continues from the session's last turn in the log (a
 * restart, a resumed session, turns the cold path handed over). Requests of one session are numbered in arrival order.
 */
export class HookSessionNumbers {
  private readonly last = new LruMap<string, Promise<number>>(NUMBERED_SESSIONS);

  constructor(private readonly db: Db) {}

  next(sessionId: string): Promise<number> {
    const previous = this.last.get(sessionId) ?? lastLoggedTurn(this.db, sessionId).catch(() => 0);
    const turn = previous.then((n) => n + 1);
    this.last.set(sessionId, turn.catch(() => previous));
    this.last.trim();
    return turn;
  }
}
