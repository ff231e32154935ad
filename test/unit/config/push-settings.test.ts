import { describe, expect, it } from 'vitest';
import { pushSettings } from '../../../src/config/push-settings.js';

describe('push-context settings', () => {
  it('defaults', () => {
    expect(pushSettings({}, {})).toEqual({ reflex: true, windowTurns: 4, maxPointers: 3, lexicalArms: true, gazetteer: true, toolMinConfidence: 0.8, toolMaxPages: 2, learning: false });
  });

  it('the learning gate: off unless set to true; a value that is not a boolean means off', () => {
    expect(pushSettings({ 'retrieval.reflex.learning': true }, {}).learning).toBe(true);
    expect(pushSettings({ retrieval: { reflex: { learning: true } } }, {}).learning).toBe(true);
    expect(pushSettings({ 'retrieval.reflex.learning': 'yes' }, {}).learning).toBe(false);
  });

  it('tool turns: their own gate (0–1) and cap (1–5); anything else falls back to the defaults', () => {
    expect(pushSettings({ 'retrieval.reflex.tool_min_confidence': 0.9, 'retrieval.reflex.tool_max_pages': 1 }, {})).toMatchObject({ toolMinConfidence: 0.9, toolMaxPages: 1 });
    expect(pushSettings({ 'retrieval.reflex.tool_min_confidence': 2, 'retrieval.reflex.tool_max_pages': 9 }, {})).toMatchObject({ toolMinConfidence: 0.8, toolMaxPages: 2 });
  });

  it('retrieval_reflex: env false/0 → off, other non-empty → on, empty → config (off only if exactly false)', () => {
    expect(pushSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX: 'false' }).reflex).toBe(false);
    expect(pushSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX: '0' }).reflex).toBe(false);
    expect(pushSettings({ 'retrieval.reflex.enabled': false }, { BRAINSTREAM_RETRIEVAL_REFLEX: 'off' }).reflex).toBe(true);
    expect(pushSettings({ 'retrieval.reflex.enabled': false }, { BRAINSTREAM_RETRIEVAL_REFLEX: '' }).reflex).toBe(false);
    expect(pushSettings({ 'retrieval.reflex.enabled': 'false' }, {}).reflex).toBe(true);
    expect(pushSettings({ 'retrieval.reflex.enabled': 0 }, {}).reflex).toBe(true);
  });

  it('window turns: env finite ≥ 1 → floor, else config ≥ 1 → floor, else 4', () => {
    expect(pushSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: '6.9' }).windowTurns).toBe(6);
    expect(pushSettings({ 'retrieval.reflex.window_turns': 8 }, { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: '0' }).windowTurns).toBe(8);
    expect(pushSettings({ 'retrieval.reflex.window_turns': 8 }, { BRAINSTREAM_RETRIEVAL_REFLEX_WINDOW_TURNS: 'abc' }).windowTurns).toBe(8);
    expect(pushSettings({ 'retrieval.reflex.window_turns': 6.9 }, {}).windowTurns).toBe(6);
    for (const bad of [0, -3, Number.NaN, '5']) expect(pushSettings({ 'retrieval.reflex.window_turns': bad }, {}).windowTurns).toBe(4);
    expect(pushSettings({ 'retrieval.reflex.window_turns': 1 }, {}).windowTurns).toBe(1);
  });

  it('max pointers: used if a number > 0', () => {
    expect(pushSettings({ 'retrieval.reflex.max_pointers': 2 }, {}).maxPointers).toBe(2);
    expect(pushSettings({ 'retrieval.reflex.max_pointers': 0 }, {}).maxPointers).toBe(3);
    expect(pushSettings({ 'retrieval.reflex.max_pointers': 'x' }, {}).maxPointers).toBe(3);
  });

  it('lexical arms: env trimmed, case-insensitive false/0/off/no → off; other non-empty → on; empty → config', () => {
    for (const v of ['false', ' OFF ', 'No', '0']) {
      expect(pushSettings({}, { BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS: v }).lexicalArms).toBe(false);
    }
    expect(pushSettings({ 'retrieval.reflex.lexical_arms': false }, { BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS: 'yes' }).lexicalArms).toBe(true);
    expect(pushSettings({ 'retrieval.reflex.lexical_arms': false }, { BRAINSTREAM_RETRIEVAL_REFLEX_LEXICAL_ARMS: '  ' }).lexicalArms).toBe(false);
  });

  it('gazetteer: off only if exactly false', () => {
    expect(pushSettings({ 'retrieval.reflex.gazetteer': false }, {}).gazetteer).toBe(false);
    expect(pushSettings({ 'retrieval.reflex.gazetteer': 'no' }, {}).gazetteer).toBe(true);
  });
});
