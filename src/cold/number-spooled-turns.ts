import type { Envelope } from '../domain/events.js';

/**
 * Spooled turns carry no number: the cold path decides before the log, which holds the session's
 * last number, is open. When they are appended each takes the next number of its session, in
 * spool order. `lastTurn` reads the log, so turns appended by an earlier call count.
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
    const number = (next.get(session) ?? (await lastTurn(session))) + 1;
    next.set(session, number);
    out.push({ ...turn, data: { ...turn.data, turn: number } });
  }
  return out;
}
