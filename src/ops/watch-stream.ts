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

export type TurnEvent = Envelope<'turn.appended'>;

/**
 * Where a stream of turns goes: appended to the log and decided by the volunteer processor;
 * resolves with the decisions of those turns. Serve's (or a hosting watch's) processor is one;
 * `localTurnSink` runs a private one for in-process callers (demo, benchmarks).
 */
export interface TurnSink {
  submitTurns(events: readonly TurnEvent[]): Promise<TurnDecision[]>;
}

export interface StreamTurnsOptions {
  sessionId: string;
  sourceId: string;
  settings: SessionSettings;
  onDecision: (decision: TurnDecision) => void;
}

export interface WatchOptions extends StreamTurnsOptions {
  /** Re-read per batch so configuration changes apply to the next turns. */
  topology: () => TopologySettings;
}

/** Lines of a readable stream as an Observable; completes at EOF or when `stop` fires. */
export function lines(input: NodeJS.ReadableStream, stop?: AbortSignal): Observable<string> {
  return new Observable<string>((sub) => {
    const rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
    rl.on('line', (l) => sub.next(l));
    rl.on('close', () => sub.complete());
    const onAbort = (): void => rl.close();
    if (stop?.aborted) onAbort();
    stop?.addEventListener('abort', onAbort);
    return () => {
      stop?.removeEventListener('abort', onAbort);
      rl.close();
    };
  });
}

/** A private volunteer processor over `brain`: append, decide, project, all in this process. */
export async function localTurnSink(brain: Brain, topology: () => TopologySettings): Promise<TurnSink> {
  const pages = await PageIndexFollower.load(brain.db, brain.log);
  const processor = createVolunteerProcessor({ log: brain.log, pages, settings: topology, channel: 'watch' });
  return {
    async submitTurns(events) {
      await brain.log.append(events);
      let decisions: TurnDecision[];
      try {
        await catchUp(brain.db, brain.log, processor);
      } finally {
        decisions = processor.drain();
      }
      await brain.catchUp();
      return decisions;
    },
  };
}

/**
 * `watch` (push-context §7.2): each accepted line becomes a turn event of the session; the sink's
 * volunteer processor decides and logs; the caller prints this session's decisions. Lines are
 * taken in small batches, so a piped transcript streams at thousands of turns a second.
 * Returns the number of turns accepted.
 */
export async function streamTurns(sink: TurnSink, input: Observable<string>, options: StreamTurnsOptions): Promise<number> {
  let turnNumber = 0;
  const settings = Object.keys(options.settings).length > 0 ? options.settings : undefined;
  const flush = async (batch: TurnEvent[]): Promise<void> => {
    const decisions = await sink.submitTurns(batch);
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
      bufferTime(10, null, 2000),
      filter((b) => b.length > 0),
      concatMap(flush),
      defaultIfEmpty(undefined),
    ),
  );
  return turnNumber;
}

/** `watch` over a brain this process holds, with its own processor (demo, benchmarks). */
export async function runWatch(brain: Brain, input: Observable<string>, options: WatchOptions): Promise<number> {
  return streamTurns(await localTurnSink(brain, options.topology), input, options);
}
