import { describe, expect, it } from 'vitest';
import { parseWatchLine } from '../../../src/context/parse-watch-line.js';
import { createWatchSession, stepWatchSession, type WatchSessionState } from '../../../src/context/watch-session.js';
import type { PageIndex } from '../../../src/context/page-index.js';
import { indexOf } from './helpers.js';

const pages = {
  'people/alice-example': { title: 'Alice Example' },
  'people/bob-sample': { title: 'Bob Sample' },
};

function replay(lines: string[], index: PageIndex, state: WatchSessionState, opts = {}) {
  const out: Array<{ turn: number; slugs: string[] }> = [];
  for (const line of lines) {
    const turn = parseWatchLine(line);
    if (!turn) continue;
    const step = stepWatchSession(state, turn, index, { scope: ['default'], ...opts });
    state = step.state;
    out.push({ turn: step.turn, slugs: step.volunteered.map((p) => p.slug) });
  }
  return { out, state };
}

describe('watch session', () => {
  it('--max-pages 1: Alice at turn 1, Bob at turn 2', () => {
    const { out } = replay(['ping Alice Example about it', '', 'also intro Alice Example to Bob Sample'], indexOf(pages), createWatchSession(4), {
      maxPages: 1,
    });
    expect(out).toEqual([
      { turn: 1, slugs: ['people/alice-example'] },
      { turn: 2, slugs: ['people/bob-sample'] },
    ]);
  });

  it('fires on the first mention, even an assistant turn; follow-ups add nothing; a slug once per session', () => {
    const { out, state } = replay(
      ['assistant: Alice Example led the round', 'user: what did she invest in?', 'user: Alice Example again?'],
      indexOf(pages),
      createWatchSession(),
    );
    expect(out.map((o) => o.slugs)).toEqual([['people/alice-example'], [], []]);
    expect(state.surfaced).toEqual(['people/alice-example']);
    expect(state.turnNumber).toBe(3);
  });

  it('the window rolls: the oldest turn drops beyond its size', () => {
    const { state } = replay(['a one', 'b two', 'c three'], indexOf(pages), createWatchSession(2));
    expect(state.window.map((t) => t.text)).toEqual(['b two', 'c three']);
    expect(createWatchSession(0).windowTurns).toBe(1);
    expect(createWatchSession(999999).windowTurns).toBe(64);
    expect(createWatchSession().windowTurns).toBe(4);
  });

  it('state is plain JSON and survives a round trip; steps do not mutate the old state', () => {
    const index = indexOf(pages);
    const s0 = createWatchSession(4);
    const a = stepWatchSession(s0, { role: 'user', text: 'ping Alice Example' }, index, { scope: ['default'] });
    expect(s0).toEqual({ windowTurns: 4, window: [], surfaced: [], turnNumber: 0 });
    const restored = JSON.parse(JSON.stringify(a.state)) as WatchSessionState;
    const b = stepWatchSession(restored, { role: 'user', text: 'Alice Example and Bob Sample' }, index, { scope: ['default'] });
    expect(b.volunteered.map((p) => p.slug)).toEqual(['people/bob-sample']);
    expect(b.state.surfaced).toEqual(['people/alice-example', 'people/bob-sample']);
    expect(b.turn).toBe(2);
  });

  it('takes turn numbers from the caller when given (serve)', () => {
    const step = stepWatchSession(createWatchSession(), { role: 'user', text: 'hi' }, indexOf(pages), { scope: ['default'], turn: 41 });
    expect(step.turn).toBe(41);
    expect(step.state.turnNumber).toBe(41);
  });

  it('an invalid turn leaves the state as it was; an error on a turn is swallowed', () => {
    const index = indexOf(pages);
    const s0 = createWatchSession();
    const bad = stepWatchSession(s0, { role: 'system', text: 'x' } as never, index, { scope: ['default'] });
    expect(bad.state).toBe(s0);
    const broken = { source: () => { throw new Error('boom'); }, gazetteer: null, version: 0 } as unknown as PageIndex;
    const step = stepWatchSession(s0, { role: 'user', text: 'Alice Example' }, broken, { scope: ['default'] });
    expect(step.volunteered).toEqual([]);
    expect(step.state.turnNumber).toBe(1);
  });

  it('remote sessions (Kafka traffic) never get private pages', () => {
    const index = indexOf({ 'people/secret': { title: 'Secret Person', visibility: 'private' } });
    const step = stepWatchSession(createWatchSession(), { role: 'user', text: 'Secret Person' }, index, { scope: ['default'], remote: true });
    expect(step.volunteered).toEqual([]);
  });
});

describe('tool turns', () => {
  it('are decided like any turn, count once per session, and are never the user or the assistant naming a page', () => {
    const index = indexOf(pages);
    const first = stepWatchSession(createWatchSession(4), { role: 'tool', text: 'From: Alice Example <alice@example.com>' }, index, { scope: ['default'] });
    expect(first.volunteered.map((p) => [p.slug, p.rationale])).toEqual([['people/alice-example', 'exact title match "Alice Example"; mentioned in the newest turn; from tool output']]);
    const second = stepWatchSession(first.state, { role: 'assistant', text: 'Alice Example wrote to Bob Sample' }, index, { scope: ['default'] });
    expect(second.volunteered.map((p) => [p.slug, p.rationale])).toEqual([['people/bob-sample', 'exact title match "Bob Sample"; mentioned in the newest turn; assistant-introduced']]);
  });

  it('an unknown role is still not a turn', () => {
    const state = createWatchSession(4);
    expect(stepWatchSession(state, { role: 'system', text: 'Alice Example' } as never, indexOf(pages), { scope: ['default'] }).volunteered).toEqual([]);
  });
});
