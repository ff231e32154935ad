import { createInterface } from 'node:readline';
import type { Envelope } from '../domain/events.js';
import type { KafkaEventLog } from '../event-log/kafka/kafka-event-log.js';
import type { LineResult } from './json-line-schemas.js';

export interface RejectedLine {
  line: number;
  reason: string;
}

export interface PublishLinesSummary {
  sent: number;
  rejected: RejectedLine[];
}

const CHUNK = 2000;

/**
 * Reads JSON lines from `input`, validates each one, and sends the good ones in order, in
 * chunks, while reading (a large file never sits in memory). Blank lines are skipped; a bad line
 * is reported with its 1-based number and reason and the rest still go.
 */
export async function publishLines(
  input: NodeJS.ReadableStream,
  parse: (line: string) => LineResult,
  log: Pick<KafkaEventLog, 'append'>,
  onRejected: (rejected: RejectedLine) => void = () => {},
): Promise<PublishLinesSummary> {
  const summary: PublishLinesSummary = { sent: 0, rejected: [] };
  let pending: Envelope[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    await log.append(batch);
    summary.sent += batch.length;
  };
  let number = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity, terminal: false })) {
    number++;
    if (line.trim() === '') continue;
    const result = parse(line);
    if (!result.ok) {
      const rejected = { line: number, reason: result.reason };
      summary.rejected.push(rejected);
      onRejected(rejected);
      continue;
    }
    pending.push(...result.events);
    if (pending.length >= CHUNK) await flush();
  }
  await flush();
  return summary;
}
