import { describe, expect, it } from 'vitest';
import { retrievalLineParser, turnLineParser } from '../../../src/distributed/json-line-schemas.js';

const long = 's'.repeat(300);

describe('published lines', () => {
  it('cut a long session id to 256 characters, as every channel does, instead of refusing the line', () => {
    const turn = turnLineParser('default')(JSON.stringify({ session_id: long, role: 'user', text: 'hi' }));
    expect(turn.ok && turn.events[0]!.data).toMatchObject({ session_id: long.slice(0, 256), turn: 1 });
    const read = retrievalLineParser('default')(JSON.stringify({ slug: 'people/alice', session_id: long }));
    expect(read.ok && read.events[0]!.data).toMatchObject({ session_id: long.slice(0, 256) });
  });

  it('refuse an empty session id with the field named', () => {
    const turn = turnLineParser('default')(JSON.stringify({ session_id: '', role: 'user', text: 'hi' }));
    expect(turn.ok).toBe(false);
    expect(!turn.ok && turn.reason).toContain('session_id');
  });
});
