import { describe, expect, it } from 'vitest';
import { mergeWindow } from '../../../src/context/merge-window.js';
import { assistant, user } from './helpers.js';

const byKey = (turns: Parameters<typeof mergeWindow>[0]) => new Map(mergeWindow(turns).map((c) => [c.key, c]));

describe('window merge', () => {
  it('records occurrences, last turn, newest turn, user mention and first-mention order', () => {
    const m = byKey([user('ask Alice Example'), assistant('Alice Example and Bob Sample met'), user('ok')]);
    expect(m.get('alice example')).toMatchObject({
      occurrences: 2,
      lastTurnIdx: 1,
      inNewestTurn: false,
      userMention: true,
      order: 0,
      display: 'Alice Example',
      weak: false,
    });
    expect(m.get('bob sample')).toMatchObject({ occurrences: 1, lastTurnIdx: 1, userMention: false, order: 2 });
  });

  it('weight = (lastTurnIdx+1)/turns + min(occ,4)×0.1 + 0.15 for a user mention', () => {
    const turns = [user('Zed'), user('Zed'), user('Zed'), user('Zed'), user('Zed'), assistant('Ann')];
    const m = byKey(turns);
    expect(m.get('zed')?.weight).toBeCloseTo(5 / 6 + 0.4 + 0.15, 12);
    expect(m.get('ann')?.weight).toBeCloseTo(1 + 0.1, 12);
  });

  it('sorts strong before weak, then weight descending, then first-mention order', () => {
    const list = mergeWindow([user('Old Name said hello there'), assistant('New Name arrived')]);
    expect(list.map((c) => c.display)).toEqual(['New Name', 'Old Name', 'arrived', 'said']);
  });

  it('empty turn texts are skipped but count as turns', () => {
    const m = byKey([user('Alice Example'), user('')]);
    expect(m.get('alice example')).toMatchObject({ inNewestTurn: false, weight: 1 / 2 + 0.1 + 0.15 });
  });

  it('a user sighting replaces an assistant display', () => {
    const m = byKey([assistant('ALICE EXAMPLE'), user('Alice Example')]);
    expect(m.get('alice example')?.display).toBe('Alice Example');
  });

  it('a strong sighting replaces a weak entry and its query (deliberate difference)', () => {
    const m = byKey([user('remind me what saoirse said'), assistant('Saoirse said yes')]);
    // The user mentioned it first, so an assistant sighting keeps the user display.
    expect(m.get('saoirse')).toMatchObject({ weak: false, query: 'Saoirse', display: 'saoirse', userMention: true, occurrences: 2 });
    const n = byKey([assistant('saoirse said'), user('Saoirse again')]);
    expect(n.get('saoirse')).toMatchObject({ weak: false, query: 'Saoirse', display: 'Saoirse', userMention: true });
  });

  it('a weak sighting after a strong one keeps the strong query', () => {
    const m = byKey([assistant('Apple shipped'), user('apple shipped')]);
    expect(m.get('apple')).toMatchObject({ weak: false, query: 'Apple', display: 'apple', userMention: true });
  });

  it('keeps the first 12 strong and 32 weak', () => {
    const names = Array.from({ length: 12 }, (_, i) => `Name${String.fromCharCode(97 + i)}x`);
    const more = Array.from({ length: 12 }, (_, i) => `Other${String.fromCharCode(97 + i)}x`);
    const list = mergeWindow([user(names.join(', ')), user(more.join(', '))]);
    const strong = list.filter((c) => !c.weak).map((c) => c.display);
    expect(strong).toHaveLength(12);
    expect(strong[0]).toBe('Otherax');
    const words = Array.from({ length: 30 }, (_, i) => `word${String.fromCharCode(97 + i % 26)}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    const words2 = Array.from({ length: 30 }, (_, i) => `term${String.fromCharCode(97 + i % 26)}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    expect(mergeWindow([user(words.join(' ')), user(words2.join(' '))]).filter((c) => c.weak)).toHaveLength(32);
  });
});
