import type { Envelope } from '../domain/events.js';

/**
 * A hook's spooled turn carries no number (0): the cold path decides it before the log, which
 * holds the session's last number, is open; when it is appended it takes the next number of its
 * session, in spool order. `lastTurn` reads the log, so turns appended by an earlier call count.
 * A turn that carries its number keeps it: a `watch` that began on the cold path numbered a
 * session of its own, printed those numbers, and goes on with them once serve answers.
 */
export async function numberSpooledTurns(events: readonly Envelope[], lastTurn: (sessionId: string) => Promise<number>): Promise<Envelope[]> {
  const next = new Map<string, number>();
  const out: Envelope[] = [];
  for (const e of events) {
    if (e.type !== 'turn.appended') {
      out.push(e);
      continue;
    }
    const turn = e as Envelope<'turn.appended'>;
    const session = turn.data.session_id;
    const previous = next.get(session) ?? (await lastTurn(session));
    const number = turn.data.turn > 0 ? turn.data.turn : previous + 1;
    next.set(session, Math.max(previous, number));
    out.push(number === turn.data.turn ? turn : { ...turn, data: { ...turn.data, turn: number } });
  }
  return out;
}
