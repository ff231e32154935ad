import type { Db } from '../db/db.js';

/**
 * `session_state`: what a stateful consumer (the volunteer processor) remembers per session,
 * written in the same transaction as its checkpoint, so state and position never disagree.
 * A state is a JSON object of the consumer's own shape.
 */

export async function loadSessionStates<S>(tx: Db, processor: string, sessionIds: readonly string[]): Promise<{ session_id: string; state: S }[]> {
  return tx.query<{ session_id: string; state: S }>('SELECT session_id, state FROM session_state WHERE processor = $1 AND session_id = ANY($2::text[])', [
    processor,
    sessionIds,
  ]);
}

/**
 * Writes the states in one statement. They travel as one JSON value (not pre-stringified:
 * postgres.js would store a JSON string, PGlite an object; both store objects).
 */
export async function saveSessionStates(tx: Db, processor: string, rows: readonly { session_id: string; state: unknown }[], at: string): Promise<void> {
  await tx.query(
    `INSERT INTO session_state (processor, session_id, state, updated_at)
     SELECT $1, x.session_id, x.state, $3 FROM jsonb_to_recordset($2::jsonb) AS x(session_id text, state jsonb)
     ON CONFLICT (processor, session_id) DO UPDATE SET state = EXCLUDED.state, updated_at = EXCLUDED.updated_at`,
    [processor, rows, at],
  );
}

/** The `turnNumber` a processor stored for a session, or null. */
export async function storedTurnNumber(db: Db, processor: string, sessionId: string): Promise<string | number | null> {
  const [row] = await db.query<{ turn: string | number | null }>(
    "SELECT state->>'turnNumber' AS turn FROM session_state WHERE processor = $1 AND session_id = $2",
    [processor, sessionId],
  );
  return row?.turn ?? null;
}

/** The highest turn number of a session among the turns at or after a consumer's checkpoint (turns it has not decided yet), or null. */
export async function pendingTurnNumber(db: Db, sessionId: string, consumer: string): Promise<string | number | null> {
  const [row] = await db.query<{ turn: string | number | null }>(
    `SELECT max((data->>'turn')::bigint) AS turn FROM events
      WHERE topic = 'turns' AND key = $1
        AND seq >= COALESCE((SELECT position FROM checkpoints WHERE consumer = $2), 1)`,
    [sessionId, consumer],
  );
  return row?.turn ?? null;
}
