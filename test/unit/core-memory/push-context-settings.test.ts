import { describe, expect, it } from 'vitest';
import { pushContextSettings } from '../../../src/core-memory/push-context-settings.js';

describe('push-context §12 settings', () => {
  it('defaults', () => {
    expect(pushContextSettings({}, {})).toEqual({ retrievalReflex: true, windowTurns: 4, maxPointers: 3, lexicalArms: true, gazetteer: true });
  });

  it('retrieval_reflex: env false/0 → off, other non-empty → on, empty → config (off only if exactly false)', () => {
    expect(pushContextSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX: 'false' }).retrievalReflex).toBe(false);
    expect(pushContextSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX: '0' }).retrievalReflex).toBe(false);
    expect(pushContextSettings({ retrieval_reflex: false }, { BRAINSTREAM_RETRIEVAL_REFLEX: 'off' }).retrievalReflex).toBe(true);
    expect(pushContextSettings({ retrieval_reflex: false }, { BRAINSTREAM_RETRIEVAL_REFLEX: '' }).retrievalReflex).toBe(false);
    expect(pushContextSettings({ retrieval_reflex: 'false' }, {}).retrievalReflex).toBe(true);
    expect(pushContextSettings({ retrieval_reflex: 0 }, {}).retrievalReflex).toBe(true);
  });

  it('window turns: env finite ≥ 1 → floor, else config ≥ 1 → floor, else 4', () => {
    expect(pushContextSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: '6.9' }).windowTurns).toBe(6);
    expect(pushContextSettings({ retrieval_reflex_window_turns: 8 }, { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: '0' }).windowTurns).toBe(8);
    expect(pushContextSettings({ retrieval_reflex_window_turns: 8 }, { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: 'abc' }).windowTurns).toBe(8);
    expect(pushContextSettings({ retrieval_reflex_window_turns: 6.9 }, {}).windowTurns).toBe(6);
    for (const bad of [0, -3, Number.NaN, '5']) expect(pushContextSettings({ retrieval_reflex_window_turns: bad }, {}).windowTurns).toBe(4);
    expect(pushContextSettings({ retrieval_reflex_window_turns: 1 }, {}).windowTurns).toBe(1);
  });

  it('max pointers: used if a number > 0', () => {
    expect(pushContextSettings({ retrieval_reflex_max_pointers: 2 }, {}).maxPointers).toBe(2);
    expect(pushContextSettings({ retrieval_reflex_max_pointers: 0 }, {}).maxPointers).toBe(3);
    expect(pushContextSettings({ retrieval_reflex_max_pointers: 'x' }, {}).maxPointers).toBe(3);
  });

  it('lexical arms: env trimmed, case-insensitive false/0/off/no → off; other non-empty → on; empty → config', () => {
    for (const v of ['false', ' OFF ', 'No', '0']) {
      expect(pushContextSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS: v }).lexicalArms).toBe(false);
    }
    expect(pushContextSettings({ retrieval_reflex_lexical_arms: false }, { BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS: 'yes' }).lexicalArms).toBe(true);
    expect(pushContextSettings({ retrieval_reflex_lexical_arms: false }, { BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS: '  ' }).lexicalArms).toBe(false);
  });

  it('gazetteer: off only if exactly false', () => {
    expect(pushContextSettings({ retrieval_reflex_gazetteer: false }, {}).gazetteer).toBe(false);
    expect(pushContextSettings({ retrieval_reflex_gazetteer: 'no' }, {}).gazetteer).toBe(true);
  });
});
