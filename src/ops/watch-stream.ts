import { createInterface } from 'node:readline';
import { Observable, bufferTime, concatMap, filter, map, lastValueFrom, defaultIfEmpty } from 'rxjs';
import type { Brain } from '../brain/brain.js';
import { parseWatchLine } from '../context/parse-watch-line.js';
import { makeEvent, type Envelope } from '../domain/events.js';
import type { SessionSettings } from '../domain/event-schemas.js';
import { catchUp } from '../log/consumer.js';
import { PageIndexFollower } from '../../streams/page-index-follower.js';
import { createVolunteerProcessor } from '../../streams/volunteer-processor.js';
import type { TopologySettings, TurnDecision } from '../../streams/volunteer-topology.js';

export interface WatchOptions {
  sessionId: string;
  sourceId: string;
  settings: SessionSettings;
  /** Re-read per batch so configuration changes apply to the next turns. */
  topology: () => TopologySettings;
  onDecision: (decision: TurnDecision) => void;
}

/** Lines of a readable stream as an Observable; completes at EOF or when `stop` fires. */
export function lines(input: NodeJS.ReadableStream, stop?: AbortSignal): Observable<string> {
  return new Observable<string>((sub) => {
    const rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    rl.on('line', (l) => sub.next(l));
    rl.on('close', () => sub.complete());
    const onAbort = (): void => rl.close();
    stop?.addEventListener('abort', onAbort);
    return () => {
      stop?.removeEventListener('abort', onAbort);
      rl.close();
    };
  });
}

/**
 * `watch`: each accepted line becomes a turn event in the log; the volunteer processor (the same
 * consumer `serve` runs) decides, appending volunteered events with its checkpoint; the
 * projections catch up; the caller prints this session's decisions. Lines are taken in small
 * batches, so a piped transcript streams at thousands of turns a second.
 */
export async function runWatch(brain: Brain, input: Observable<string>, options: WatchOptions): Promise<number> {
  const pages = await PageIndexFollower.load(brain.db, brain.log);
  const processor = createVolunteerProcessor({ log: brain.log, pages, settings: options.topology, channel: 'watch' });
  let turnNumber = 0;
  const settings = Object.keys(options.settings).length > 0 ? options.settings : undefined;
  const flush = async (batch: Envelope<'turn.appended'>[]): Promise<void> => {
    await brain.log.append(batch);
    let decisions: TurnDecision[];
    try {
      await catchUp(brain.db, brain.log, processor);
    } finally {
      decisions = processor.drain();
    }
    await brain.catchUp();
    for (const d of decisions) if (d.event.data.session_id === options.sessionId) options.onDecision(d);
  };
  await lastValueFrom(
    input.pipe(
      map(parseWatchLine),
      filter((t) => t !== null),
      map((t) =>
        makeEvent(
          'turn.appended',
          { session_id: options.sessionId, turn: ++turnNumber, role: t.role, text: t.text, source_id: options.sourceId, ...(settings ? { settings } : {}) },
          { key: options.sessionId },
        ),
      ),
      bufferTime(10, null, 500),
      filter((b) => b.length > 0),
      concatMap(flush),
      defaultIfEmpty(undefined),
    ),
  );
  return turnNumber;
}
