import { parseWatchLine } from '../src/context/parse-watch-line.js';
import { storableLine } from '../src/context/storable-line.js';
import type { Turn } from '../src/context/turn.js';
import { makeEvent } from '../src/domain/events.js';
import type { SessionSettings } from '../src/domain/event-schemas.js';
import { logger } from '../src/logger.js';
import type { TurnEvent } from './decide-turns.js';

export interface SessionTurnsOptions {
  sessionId: string;
  sourceId: string;
  settings: SessionSettings;
  /** Turns the session already had (a restarted session continues its numbering); default 0. */
  lastTurn?: number;
}

/** One turn could not be appended or decided: skipped with a warning, the stream goes on. */
export function turnSkipped(err: unknown, turns: readonly TurnEvent[] | number, sessionId: string): void {
  const numbers = typeof turns === 'number' ? [turns] : turns.map((t) => t.data.turn);
  logger.warn({ err, session_id: sessionId, turns: numbers }, 'a turn failed and was skipped; the stream goes on');
}

/**
 * A `watch` session's input lines as its turn events, numbered in order after `lastTurn`, with
 * the session's knobs on each. No line ends the stream: one that cannot be read is skipped (it
 * takes no number), one whose event cannot be made is skipped after taking its number. Whichever
 * process reads the lines (serve, or the cold path before serve answers), the turns are the same.
 */
export class SessionTurns {
  private turnNumber: number;
  private readonly settings: SessionSettings | undefined;

  constructor(private readonly options: SessionTurnsOptions) {
    this.turnNumber = options.lastTurn ?? 0;
    this.settings = Object.keys(options.settings).length > 0 ? options.settings : undefined;
  }

  /** The number of the session's last turn so far. */
  get lastTurn(): number {
    return this.turnNumber;
  }

  /** The turn event of one input line, or null when the line is skipped. */
  next(line: string): TurnEvent | null {
    const { sessionId, sourceId } = this.options;
    let t: Turn | null;
    try {
      t = parseWatchLine(storableLine(line));
    } catch (err) {
      turnSkipped(err, this.turnNumber + 1, sessionId);
      return null;
    }
    if (t === null) return null;
    const turn = ++this.turnNumber;
    try {
      return makeEvent(
        'turn.appended',
        { session_id: sessionId, turn, role: t.role, text: t.text, source_id: sourceId, ...(this.settings ? { settings: this.settings } : {}) },
        { key: sessionId },
      );
    } catch (err) {
      turnSkipped(err, turn, sessionId);
      return null;
    }
  }
}
