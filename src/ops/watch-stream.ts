import { createInterface } from 'node:readline';
import { Observable, bufferTime, concatMap, filter, map, lastValueFrom, defaultIfEmpty } from 'rxjs';
import { SessionTurns, turnSkipped, type SessionTurnsOptions } from '../../streams/session-turns.js';
import type { TopologySettings, TurnDecision, TurnEvent } from '../../streams/decide-turns.js';
import { TurnEngine, type EngineBrain, type TurnSink } from '../../streams/turn-engine.js';

export interface StreamTurnsOptions extends SessionTurnsOptions {
  onDecision: (decision: TurnDecision) => void;
  /** After the decisions of one batch were handed to `onDecision` (a printer writes them out at once). */
  afterBatch?: () => void;
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

/**
 * `watch`: each accepted line becomes a turn event of the session; the sink's
 * volunteer processor decides and logs; the caller prints this session's decisions. Lines are
 * taken in small batches, so a piped transcript streams at thousands of turns a second. A batch
 * that fails is retried turn by turn, so one bad turn costs only itself. Returns the number of
 * the session's last turn.
 */
export async function streamTurns(sink: TurnSink, input: Observable<string>, options: StreamTurnsOptions): Promise<number> {
  const turns = new SessionTurns(options);
  const deliver = (decisions: readonly TurnDecision[]): void => {
    for (const d of decisions) if (d.event.data.session_id === options.sessionId) options.onDecision(d);
    options.afterBatch?.();
  };
  const submit = async (batch: readonly TurnEvent[]): Promise<boolean> => {
    try {
      deliver(await sink.submitTurns(batch));
      return true;
    } catch (err) {
      if (batch.length === 1) turnSkipped(err, batch, options.sessionId);
      return false;
    }
  };
  const flush = async (batch: TurnEvent[]): Promise<void> => {
    if (await submit(batch)) return;
    if (batch.length > 1) for (const turn of batch) await submit([turn]);
  };
  await lastValueFrom(
    input.pipe(
      map((line) => turns.next(line)),
      filter((e) => e !== null),
      bufferTime(10, null, 2000),
      filter((b) => b.length > 0),
      concatMap(flush),
      defaultIfEmpty(undefined),
    ),
  );
  // EOF: drain the sink's pending writes, so no volunteered event of the last turns is lost.
  await sink.settle?.();
  return turns.lastTurn;
}

/**
 * `watch` over a brain this process holds and nobody serves (the demo, tests): the production
 * turn engine, started for the stream and stopped after it.
 */
export async function runWatch(brain: EngineBrain, input: Observable<string>, options: WatchOptions): Promise<number> {
  const engine = await TurnEngine.start(brain, { settings: options.topology });
  try {
    return await streamTurns(engine, input, options);
  } finally {
    await engine.stop();
  }
}
