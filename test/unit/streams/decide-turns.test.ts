import { describe, expect, it } from 'vitest';
import { createWatchSession, stepWatchSession, type WatchSessionState } from '../../../src/context/watch-session.js';
import { makeEvent } from '../../../src/domain/events.js';
import type { SessionSettings } from '../../../src/domain/event-schemas.js';
import { decideTurns, type SessionStore, type TopologySettings, type TurnEvent } from '../../../streams/decide-turns.js';
import { indexOf } from '../context/helpers.js';

const index = indexOf({
  'people/alice-example': { title: 'Alice Example' },
  'people/bob-sample': { title: 'Bob Sample' },
  'people/carol-demo': { title: 'Carol Demo' },
});
const settings: TopologySettings = { windowTurns: 4, minConfidence: 0.7, maxPages: 3, lexicalArms: true, gazetteer: true, remote: false };

const turn = (session: string, n: number, text: string, extra: SessionSettings = {}): TurnEvent =>
  makeEvent('turn.appended', { session_id: session, turn: n, role: 'user', text, source_id: 'default', ...(Object.keys(extra).length ? { settings: extra } : {}) }, { key: session });

class MemoryStore implements SessionStore {
  readonly states = new Map<string, WatchSessionState>();
  get = (id: string) => this.states.get(id);
  set = (id: string, s: WatchSessionState) => void this.states.set(id, s);
}

describe('decideTurns', () => {
  it('keeps interleaved sessions apart: each decides as if it ran alone', () => {
    const a = ['ping Alice Example', 'and Bob Sample', 'Alice Example again', 'what about Carol Demo'];
    const b = ['Bob Sample here', 'Alice Example too', 'Bob Sample once more', 'no names'];
    const events = a.flatMap((text, i) => [turn('a', i + 1, text), turn('b', i + 1, b[i]!)]);
    const decisions = decideTurns(events, index, new MemoryStore(), settings, 'watch').decisions;

    // The independent expectation: each session stepped on its own, in order.
    const alone = (lines: string[]) => {
      let state = createWatchSession(4);
      return lines.map((text, i) => {
        const step = stepWatchSession(state, { role: 'user', text }, index, { scope: ['default'], turn: i + 1 });
        state = step.state;
        return step.volunteered.map((p) => p.slug);
      });
    };
    const of = (session: string) => decisions.filter((d) => d.event.data.session_id === session).map((d) => d.volunteered.map((p) => p.slug));
    expect(of('a')).toEqual(alone(a));
    expect(of('b')).toEqual(alone(b));
    expect(of('a')).toEqual([['people/alice-example'], ['people/bob-sample'], [], ['people/carol-demo']]);
    expect(of('b')).toEqual([['people/bob-sample'], ['people/alice-example'], [], []]);
  });

  it('applies the window size a turn carries to a restored session (a restart with a new --window-turns)', () => {
    const store = new MemoryStore();
    decideTurns([1, 2, 3].map((n) => turn('s', n, `line ${n}`, { window_turns: 4 })), index, store, settings, 'watch');
    expect(store.get('s')).toMatchObject({ windowTurns: 4, turnNumber: 3 });
    expect(store.get('s')!.window).toHaveLength(3);

    const [restarted] = decideTurns([turn('s', 4, 'line 4', { window_turns: 1 })], index, store, settings, 'watch').decisions;
    expect(restarted!.state.windowTurns).toBe(1);
    expect(restarted!.state.window.map((t) => t.text)).toEqual(['line 4']);
  });

  it('a restored session without its own window size follows the configured one', () => {
    const store = new MemoryStore();
    store.set('s', { windowTurns: 8, window: [], surfaced: ['people/alice-example'], turnNumber: 5 });
    const [d] = decideTurns([turn('s', 6, 'Alice Example and Bob Sample')], index, store, { ...settings, windowTurns: 2 }, 'watch').decisions;
    expect(d!.state).toMatchObject({ windowTurns: 2, turnNumber: 6 });
    // The restored session still remembers what it already volunteered.
    expect(d!.volunteered.map((p) => p.slug)).toEqual(['people/bob-sample']);
  });

  it('logs one volunteered event per volunteered page, its id fixed by session, turn and page', () => {
    const events = [turn('s', 1, 'ping Alice Example and Bob Sample'), turn('s', 2, 'nothing here')];
    const first = decideTurns(events, index, new MemoryStore(), settings, 'watch');
    const again = decideTurns(events, index, new MemoryStore(), settings, 'watch');
    expect(first.events.map((e) => [e.data.slug, e.data.turn, e.data.channel, e.data.session_id])).toEqual([
      ['people/alice-example', 1, 'watch', 's'],
      ['people/bob-sample', 1, 'watch', 's'],
    ]);
    expect(first.events.every((e) => e.at === events[0]!.at)).toBe(true);
    // A retried batch logs the same events, so the log stores them once.
    expect(again.events.map((e) => e.id)).toEqual(first.events.map((e) => e.id));
  });

  it('a fresh turn (the cold path) is decided on itself and its shown pages; the session carries on with both', () => {
    const store = new MemoryStore();
    const first = decideTurns([turn('s', 1, 'ping Alice Example'), turn('s', 2, 'and Bob Sample')], index, store, settings, 'watch');
    expect(first.decisions.map((d) => d.volunteered.map((p) => p.slug))).toEqual([['people/alice-example'], ['people/bob-sample']]);
    const cold = makeEvent(
      'turn.appended',
      { session_id: 's', turn: 3, role: 'user', text: 'Alice Example, Bob Sample and Carol Demo', source_id: 'default', settings: { fresh: true }, shown: ['people/bob-sample'] },
      { key: 's' },
    );
    const [fresh] = decideTurns([cold], index, store, settings, 'watch').decisions;
    // What the cold path decided without the session: the same as from an empty session.
    const alone = stepWatchSession(createWatchSession(4), { role: 'user', text: cold.data.text }, index, { scope: ['default'], turn: 3, shown: ['people/bob-sample'] });
    expect(fresh!.volunteered).toEqual(alone.volunteered);
    expect(fresh!.volunteered.map((p) => p.slug)).toEqual(['people/alice-example', 'people/carol-demo']);
    // The session keeps its window and everything surfaced so far, this turn included.
    expect(fresh!.state.window.map((t) => t.text)).toEqual(['ping Alice Example', 'and Bob Sample', cold.data.text]);
    expect([...fresh!.state.surfaced].sort()).toEqual(['people/alice-example', 'people/bob-sample', 'people/carol-demo']);
    expect(fresh!.state.turnNumber).toBe(3);
    const [after] = decideTurns([turn('s', 4, 'Carol Demo again')], index, store, settings, 'watch').decisions;
    expect(after!.volunteered).toEqual([]);
  });
});
