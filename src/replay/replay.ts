import type { Topic } from '../domain/events.js';
import { learningEventOf } from '../learning/learning-fold.js';
import type { LoggedEvent, UndecodableEntry } from '../event-log/event-log.js';
import { addOutcomes, emptyOutcomes, retrievedInSessions } from './outcome-index.js';
import { buildReplayReport, type ReplayReport } from './replay-report.js';
import type { ReplayKnobs, ReplayPageChange, ReplayStep, ReplayTurn, ReplayVolunteered } from './replay-types.js';
import { startShardPool, type ShardPool } from './shard-pool.js';
import type { ReplaySource } from './turn-source.js';

export interface ReplayOptions extends ReplayKnobs {
  /** Arms to report (null: every arm that fired). The decisions themselves are unchanged. */
  arms: string[] | null;
  /** Worker threads deciding in parallel (sessions are sharded); ≤ 1 decides in this thread. */
  workers: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ReplayRun {
  report: ReplayReport;
  /** Collect mode: the volunteered pages of the gates asked for. */
  volunteered: ReplayVolunteered[];
}

// A Kafka source names its topics with the deployment's prefix ("team-a.turns"), the embedded log
// without one, so a stream is matched by the end of the name.
function countRejected(into: Record<string, number>, rejected: readonly UndecodableEntry[], topics?: readonly Topic[]): void {
  for (const r of rejected) if (!topics || topics.some((t) => r.topic.endsWith(t))) into[r.reason] = (into[r.reason] ?? 0) + 1;
}

function toTurn(e: LoggedEvent): ReplayTurn | null {
  if (e.event.type !== 'turn.appended') return null;
  const d = e.event.data;
  return {
    session: d.session_id, turn: d.turn, role: d.role, text: d.text, source: d.source_id, at: Date.parse(e.event.at),
    ...(d.settings?.window_turns !== undefined ? { windowTurns: d.settings.window_turns } : {}),
    ...(d.settings?.max_pages !== undefined ? { maxPages: d.settings.max_pages } : {}),
    ...(d.channel !== undefined ? { channel: d.channel } : {}),
    ...(d.settings?.pointers !== undefined ? { pointers: d.settings.pointers } : {}),
    ...(d.shown !== undefined ? { shown: d.shown } : {}),
    ...(d.settings?.remote === true ? { remote: true } : {}),
    ...(d.settings?.fresh === true ? { fresh: true } : {}),
  };
}

function toPageChange(e: LoggedEvent): ReplayPageChange | null {
  if (e.event.type === 'page.upserted') return { kind: 'upsert', page: e.event.data };
  if (e.event.type === 'page.deleted') return { kind: 'delete', source: e.event.data.source_id, slug: e.event.data.slug };
  return null;
}

/**
 * Feeds a batch to the pool in log order: runs of page changes and runs of turns alternate; the
 * learning gate's outcomes (volunteered pages, reads, purges) travel with the turns.
 */
async function feed(pool: ShardPool, events: readonly LoggedEvent[]): Promise<void> {
  const pages: ReplayPageChange[] = [];
  const turns: ReplayStep[] = [];
  for (const e of events) {
    const learning = learningEventOf(e.event);
    if (learning) {
      if (pages.length > 0) await pool.pages(pages.splice(0));
      turns.push(learning);
      continue;
    }
    const change = toPageChange(e);
    if (change) {
      if (turns.length > 0) await pool.turns(turns.splice(0));
      pages.push(change);
      continue;
    }
    const turn = toTurn(e);
    if (!turn) continue;
    if (pages.length > 0) await pool.pages(pages.splice(0));
    turns.push(turn);
  }
  if (pages.length > 0) await pool.pages(pages);
  if (turns.length > 0) await pool.turns(turns);
}

/**
 * Re-runs the streaming volunteer decision over the logged turns at every gate, and scores each
 * gate against what the log says happened next. Two reads of the source: retrievals and page
 * states first (the outcomes), then pages and turns in log order (the decisions). Writes nothing.
 */
export async function runReplay(source: ReplaySource, options: ReplayOptions): Promise<ReplayRun> {
  const outcomes = emptyOutcomes();
  const skipped: Record<string, number> = {};
  const progress = (pass: number, done: number, total: number): void => options.onProgress?.(pass * total + done, 2 * total);
  for await (const b of source.read(['pages', 'retrievals'])) {
    addOutcomes(outcomes, b.events);
    countRejected(skipped, b.rejected, ['retrievals']);
    progress(0, b.done, b.total);
  }
  const { arms: _arms, workers, onProgress: _p, ...knobs } = options;
  const pool = startShardPool(workers, knobs, outcomes);
  const topics: Topic[] = options.learned ? ['pages', 'turns', 'volunteered', 'retrievals'] : ['pages', 'turns'];
  try {
    for await (const b of source.read(topics)) {
      await feed(pool, b.events);
      // Undecodable retrievals were counted in the first pass.
      countRejected(skipped, b.rejected, ['pages', 'turns', 'volunteered']);
      progress(1, b.done, b.total);
    }
  } catch (err) {
    await pool.finish().catch(() => {});
    throw err;
  }
  const shards = await pool.finish();
  const sessions = new Set(shards.flatMap((s) => s.sessions));
  const report = buildReplayReport({
    gates: options.gates,
    arms: options.arms,
    shards,
    retrievedInSession: retrievedInSessions(outcomes, sessions, options.since),
    since: options.since,
    maxPages: options.maxPages ?? null,
    skipped,
  });
  return { report, volunteered: shards.flatMap((s) => s.collected) };
}
