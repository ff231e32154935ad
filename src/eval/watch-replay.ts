import { from } from 'rxjs';
import type { PageIndex } from '../context/page-index.js';
import { parseWatchLine } from '../context/parse-watch-line.js';
import type { WatchSessionState } from '../context/watch-session.js';
import { streamTurns } from '../ops/watch-stream.js';
import { decideTurns, type TopologySettings, type TurnDecision } from '../../streams/decide-turns.js';
import type { TurnSink } from '../../streams/turn-engine.js';
import type { BenchFixture } from './fixtures.js';

type FixtureTurn = BenchFixture['turns'][number];

const LINE_BREAKS = /\r\n|[\r\n]/gu;

/**
 * The stdin line `watch` reads for a fixture turn: `<role>: <text>`. `watch` takes one line per
 * turn, so a line break inside a turn becomes a space (extraction treats any whitespace alike).
 */
const watchLine = (t: FixtureTurn): string => `${t.role}: ${String(t.text).replace(LINE_BREAKS, ' ')}`;

/**
 * A sink deciding turns with the turn engine's decision (`decideTurns`, session state kept
 * between batches) over an in-memory page index, without a log: the benchmark scores the
 * channel's decisions, not its storage.
 */
function inMemoryTurnSink(index: PageIndex, settings: TopologySettings): TurnSink {
  const sessions = new Map<string, WatchSessionState>();
  return { submitTurns: async (events) => decideTurns(events, index, sessions, settings, 'watch').decisions };
}

export interface ReplayedTurn {
  turn: FixtureTurn;
  /** Its decision as a watch turn, or null when `watch` skips the line (blank text). */
  decision: TurnDecision | null;
}

/**
 * Feeds a fixture's turns, one stdin line each, through `watch`'s own pipeline (line
 * parsing, turn numbering, batching, the volunteer topology) as one session scoped to `sourceId`.
 * Every accepted line must come back decided: a turn lost on the way is an error, never a
 * silently unscored turn.
 */
export async function replayThroughWatch(
  fixture: BenchFixture,
  index: PageIndex,
  sourceId: string,
  settings: TopologySettings,
): Promise<ReplayedTurn[]> {
  const lines = fixture.turns.map(watchLine);
  const accepted = fixture.turns.filter((_, i) => parseWatchLine(lines[i]) !== null);
  const decisions = new Map<number, TurnDecision>();
  await streamTurns(inMemoryTurnSink(index, settings), from(lines), {
    sessionId: fixture.fixture_id,
    sourceId,
    settings: {},
    onDecision: (d) => decisions.set(d.turn, d),
  });
  if (decisions.size !== accepted.length) {
    const lost = accepted.map((t, i) => (decisions.has(i + 1) ? null : t.turn_id)).filter((id) => id !== null);
    throw new Error(`fixture ${fixture.fixture_id}: watch decided ${decisions.size} of ${accepted.length} turns (not decided: turn ${lost.join(', ')})`);
  }
  const byTurn = new Map(accepted.map((t, i) => [t, decisions.get(i + 1) ?? null]));
  return fixture.turns.map((turn) => ({ turn, decision: byTurn.get(turn) ?? null }));
}
