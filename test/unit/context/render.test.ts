import { describe, expect, it } from 'vitest';
import { oneShotJson, renderHuman, watchJsonLine } from '../../../src/context/render.js';
import { volunteer } from '../../../src/context/volunteer.js';
import { indexOf, user } from './helpers.js';

const alice = () =>
  volunteer([user('what do you think about Alice Example?')], indexOf({ 'people/alice-example': { title: 'Alice Example', body: 'Alice is an early founder.' } }), {
    scope: ['default'],
  });

describe('human rendering', () => {
  it('page line, indented synopsis, each line ends with \\n', () => {
    expect(renderHuman(alice())).toBe(
      'Alice Example → people/alice-example (0.85, title) — exact title match "Alice Example"; mentioned in the newest turn\n' +
        '    Alice is an early founder.\n',
    );
  });

  it('no synopsis line when the synopsis is empty; nothing volunteered message', () => {
    const [p] = alice();
    expect(renderHuman([{ ...p, synopsis: '' }])).toBe(
      'Alice Example → people/alice-example (0.85, title) — exact title match "Alice Example"; mentioned in the newest turn\n',
    );
    expect(renderHuman([])).toBe('Nothing volunteered (no entity cleared the confidence gate).\n');
  });
});

describe('JSON shapes of volunteer-context and watch', () => {
  it('one-shot: {pages, count, window_turns}, page keys in contract order, confidence to two decimals', () => {
    expect(JSON.stringify(oneShotJson(alice(), 3))).toBe(
      '{"pages":[{"slug":"people/alice-example","source_id":"default","display":"Alice Example","confidence":0.85,' +
        '"arm":"title","rationale":"exact title match \\"Alice Example\\"; mentioned in the newest turn","synopsis":"Alice is an early founder."}],' +
        '"count":1,"window_turns":3}',
    );
    expect(oneShotJson([], 0)).toEqual({ pages: [], count: 0, window_turns: 0 });
  });

  it('watch line: turn, slug, source_id, display, confidence, arm, rationale, synopsis, session_id', () => {
    const line = watchJsonLine(alice()[0], 7, 'watch-1');
    expect(Object.keys(line)).toEqual(['turn', 'slug', 'source_id', 'display', 'confidence', 'arm', 'rationale', 'synopsis', 'session_id']);
    expect(line).toMatchObject({ turn: 7, session_id: 'watch-1', confidence: 0.85 });
  });
});
