import { parentPort, workerData } from 'node:worker_threads';
import type { OutcomeIndex } from './outcome-index.js';
import { ReplayShard } from './replay-shard.js';
import type { ReplayKnobs } from './replay-types.js';
import type { ShardMessage } from './shard-pool.js';

/** A replay shard in a worker thread: page changes and turns in, acknowledged one message at a time. */
const { knobs, outcomes } = workerData as { knobs: ReplayKnobs; outcomes: OutcomeIndex };
const shard = new ReplayShard(knobs, outcomes);
const port = parentPort!;
port.on('message', (m: ShardMessage) => {
  if (m.kind === 'pages') shard.applyPages(m.changes);
  else if (m.kind === 'turns') shard.applyTurns(m.turns);
  else {
    port.postMessage({ kind: 'result', result: shard.result() });
    return;
  }
  port.postMessage({ kind: 'ack' });
});
