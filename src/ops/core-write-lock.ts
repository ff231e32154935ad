import type { Brain } from '../brain/brain.js';
import { lockUntilCommit, type Db } from '../db/db.js';
import type { Envelope } from '../domain/events.js';

/** A FIFO async mutex: one holder at a time, waiters served in arrival order. */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

/** Key of the transaction-scoped advisory lock that serializes guarded writes on one database. */
const CORE_WRITE_LOCK_KEY = 7243006;

const mutexes = new WeakMap<Brain, AsyncMutex>();
const mutexOf = (brain: Brain): AsyncMutex => {
  let m = mutexes.get(brain);
  if (!m) mutexes.set(brain, (m = new AsyncMutex()));
  return m;
};

/**
 * Runs one guarded write: `decide` reads the current projections through `tx`, checks the core
 * rules and returns the events to append. Guarded writes of a brain never interleave, so two
 * writers racing for the last characters of the budget cannot both pass: in this process an
 * async mutex queues them; across processes sharing a PostgreSQL database a transaction-scoped
 * advisory lock does, held until the events are appended and projected (same transaction).
 */
export function withCoreWriteLock<T>(brain: Brain, decide: (tx: Db) => Promise<{ events: readonly Envelope[]; result: T }>): Promise<T> {
  return mutexOf(brain).run(() =>
    brain.commitInTransaction(async (tx) => {
      await lockUntilCommit(tx, CORE_WRITE_LOCK_KEY);
      return decide(tx);
    }),
  );
}
