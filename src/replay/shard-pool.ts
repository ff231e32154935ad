import { Worker } from 'node:worker_threads';
import type { OutcomeIndex } from './outcome-index.js';
import { ReplayShard } from './replay-shard.js';
import { isLearningStep, type ReplayKnobs, type ReplayPageChange, type ReplayStep, type ShardResult } from './replay-types.js';

export type ShardMessage =
  | { kind: 'pages'; changes: ReplayPageChange[] }
  | { kind: 'turns'; turns: ReplayStep[] }
  | { kind: 'end' };

type WorkerReply = { kind: 'ack' } | { kind: 'result'; result: ShardResult };

/** Shards the replay by session; every shard sees every page change, in log order. */
export interface ShardPool {
  pages(changes: ReplayPageChange[]): Promise<void>;
  /** Turns go to their session's shard; learning outcomes to every shard, in the same order. */
  turns(steps: ReplayStep[]): Promise<void>;
  finish(): Promise<ShardResult[]>;
}

/** FNV-1a: a session always lands on the same shard. */
function shardOf(session: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < session.length; i++) h = Math.imul(h ^ session.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
}

class InProcessPool implements ShardPool {
  private readonly shard: ReplayShard;
  constructor(knobs: ReplayKnobs, outcomes: OutcomeIndex) {
    this.shard = new ReplayShard(knobs, outcomes);
  }
  async pages(changes: ReplayPageChange[]): Promise<void> {
    this.shard.applyPages(changes);
  }
  async turns(steps: ReplayStep[]): Promise<void> {
    this.shard.applyTurns(steps);
  }
  async finish(): Promise<ShardResult[]> {
    return [this.shard.result()];
  }
}

/** At most this many unacknowledged messages per worker: the reader never runs far ahead. */
const MAX_IN_FLIGHT = 4;

class WorkerSlot {
  private inFlight = 0;
  private waiting: (() => void)[] = [];
  private failure: Error | null = null;
  private result: ((r: ShardResult) => void) | null = null;
  private failed: ((e: Error) => void) | null = null;

  constructor(readonly worker: Worker) {
    worker.on('message', (m: WorkerReply) => {
      if (m.kind === 'result') this.result?.(m.result);
      else {
        this.inFlight--;
        this.waiting.shift()?.();
      }
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (code !== 0) this.fail(new Error(`replay worker exited with code ${code}`));
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.splice(0)) w();
    this.failed?.(err);
  }

  async send(message: ShardMessage): Promise<void> {
    while (this.inFlight >= MAX_IN_FLIGHT && !this.failure) await new Promise<void>((r) => this.waiting.push(r));
    if (this.failure) throw this.failure;
    this.inFlight++;
    this.worker.postMessage(message);
  }

  finish(): Promise<ShardResult> {
    return new Promise<ShardResult>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      this.result = resolve;
      this.failed = reject;
      this.worker.postMessage({ kind: 'end' } satisfies ShardMessage);
    });
  }
}

class WorkerPool implements ShardPool {
  constructor(private readonly slots: WorkerSlot[]) {}

  async pages(changes: ReplayPageChange[]): Promise<void> {
    await Promise.all(this.slots.map((s) => s.send({ kind: 'pages', changes })));
  }

  async turns(steps: ReplayStep[]): Promise<void> {
    const parts: ReplayStep[][] = this.slots.map(() => []);
    for (const s of steps) {
      if (isLearningStep(s)) for (const p of parts) p.push(s);
      else parts[shardOf(s.session, this.slots.length)]!.push(s);
    }
    await Promise.all(parts.map((p, i) => (p.length > 0 ? this.slots[i]!.send({ kind: 'turns', turns: p }) : undefined)));
  }

  async finish(): Promise<ShardResult[]> {
    try {
      return await Promise.all(this.slots.map((s) => s.finish()));
    } finally {
      await Promise.all(this.slots.map((s) => s.worker.terminate()));
    }
  }
}

/** The compiled worker beside this module; absent when running from TypeScript sources (tests). */
const WORKER_URL = new URL('./replay-worker.js', import.meta.url);
const workersAvailable = (): boolean => import.meta.url.endsWith('.js');

/** `workers` ≤ 1 (or sources run without a build) → one shard in this thread. */
export function startShardPool(workers: number, knobs: ReplayKnobs, outcomes: OutcomeIndex): ShardPool {
  if (workers <= 1 || !workersAvailable()) return new InProcessPool(knobs, outcomes);
  const slots = Array.from({ length: workers }, () => new WorkerSlot(new Worker(WORKER_URL, { workerData: { knobs, outcomes } })));
  return new WorkerPool(slots);
}
