import { insertRows, type Db } from '../../db/db.js';
import { deterministicId, makeEvent, type Envelope } from '../../domain/events.js';
import { DEAD_LETTER_COLUMNS, DEAD_LETTER_CONFLICT } from '../dead-letters.js';
import type { KafkaDeadLetter } from './message-codec.js';

/** The `dead_letter.recorded` event of a bad message, for the dlq topic; one id per message position. */
export function deadLetterEvent(d: KafkaDeadLetter): Envelope<'dead_letter.recorded'> {
  return makeEvent(
    'dead_letter.recorded',
    { reason: d.reason, raw: d.raw, origin: d.topic, partition: d.partition, offset: String(d.offset), seq: null },
    { key: `${d.topic}/${d.partition}`, at: new Date(d.timestamp), id: deterministicId('dlq', d.topic, d.partition, d.offset) },
  );
}

/** Keeps bad messages in `dead_letters` with their topic, partition and offset (once per position). */
export async function recordKafkaDeadLetters(tx: Db, dead: readonly KafkaDeadLetter[]): Promise<void> {
  const rows = dead.map((d) => [d.topic, d.partition, String(d.offset), null, d.reason, d.raw]);
  await insertRows(tx, 'dead_letters', DEAD_LETTER_COLUMNS, rows, DEAD_LETTER_CONFLICT);
}
