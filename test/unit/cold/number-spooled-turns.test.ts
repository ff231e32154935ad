import { describe, expect, it } from 'vitest';
import { numberSpooledTurns } from '../../../src/cold/number-spooled-turns.js';
import { makeEvent, type Envelope } from '../../../src/domain/events.js';
import { volunteeredEvent } from '../../../src/domain/volunteered-event.js';

const spooledTurn = (session: string, text: string) =>
  makeEvent('turn.appended', { session_id: session, turn: 0, role: 'user', text, source_id: 'default', channel: 'claude-code', settings: { fresh: true } }, { key: session });

describe('numberSpooledTurns', () => {
  it('each spooled turn takes the next number of its session, in spool order; other events pass as they are', async () => {
    const delivery = volunteeredEvent({ source_id: 'default', slug: 'people/x', confidence: 0.9, arm: 'title', rationale: 'r' }, { channel: 'claude-code', sessionId: null, turn: null });
    const events = [spooledTurn('a', 'one'), delivery, spooledTurn('b', 'two'), spooledTurn('a', 'three')];
    const asked: string[] = [];
    const numbered = await numberSpooledTurns(events, async (session) => {
      asked.push(session);
      return session === 'a' ? 4 : 0;
    });
    const turnOf = (e: (typeof numbered)[number]) => (e.type === 'turn.appended' ? [(e as Envelope<'turn.appended'>).data.session_id, (e as Envelope<'turn.appended'>).data.turn] : e.type);
    expect(numbered.map(turnOf)).toEqual([
      ['a', 5],
      'page.volunteered',
      ['b', 1],
      ['a', 6],
    ]);
    // Ids stay those the cold path wrote, so a file applied twice is stored once.
    expect(numbered.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(asked).toEqual(['a', 'b']);
  });

  it('a turn that carries its number keeps it (a watch numbered its own session); the session goes on after it', async () => {
    const numberedTurn = (turn: number, text: string) =>
      makeEvent('turn.appended', { session_id: 'w', turn, role: 'user', text, source_id: 'default' }, { key: 'w' });
    const events = [numberedTurn(1, 'one'), numberedTurn(2, 'two'), spooledTurn('w', 'three')];
    const numbered = await numberSpooledTurns(events, async () => 0);
    expect(numbered.map((e) => (e as Envelope<'turn.appended'>).data.turn)).toEqual([1, 2, 3]);
    expect(numbered[0]).toBe(events[0]);
  });
});
