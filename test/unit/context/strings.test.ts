import { describe, expect, it } from 'vitest';
import { hasCjk, isAllCjk, normalizeAlias, slugify, stripPossessive } from '../../../src/context/strings.js';

describe('normalizeAlias', () => {
  it.each([
    ['Alice Example', 'alice example'],
    ['  Alice   Example  ', 'alice example'],
    ['Alice\u00a0\tExample', 'alice example'],
    ['Ａｌｉｃｅ', 'alice'],
    ['"Alice"', 'alice'],
    ["'`[(Alice)]`'", 'alice'],
    ['( Alice )', 'alice'],
    ['"\'"', ''],
    ['', ''],
    ['   ', ''],
    ['ÅNGSTRÖM', 'ångström'],
    ['CS:GO', 'cs:go'],
    ["Garry's", "garry's"],
    ['a[b]', 'a[b'],
  ])('%j → %j', (input, key) => {
    expect(normalizeAlias(input)).toBe(key);
  });

  it('inner quotes and brackets stay', () => {
    expect(normalizeAlias('The "Best" (Show)')).toBe('the "best" (show');
  });
});

describe('slugify', () => {
  it.each([
    ['Alice Example', 'alice-example'],
    ['Widget-Co', 'widget-co'],
    ['  --Crème   Brûlée!!  ', 'creme-brulee'],
    ['Ünïcödé', 'unicode'],
    ['a__b..c', 'a-b-c'],
    ['田中', ''],
    ['김철수', ''],
    ['2026', '2026'],
  ])('%j → %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });
});

describe('CJK characters', () => {
  it('covers the four ranges and nothing else', () => {
    for (const ch of ['一', '鿿', 'ぁ', 'ゟ', '゠', 'ヿ', '가', '힯']) expect(hasCjk(ch)).toBe(true);
    for (const ch of ['a', 'é', '〇', 'ｱ', '한글'.slice(0, 0)]) expect(hasCjk(ch)).toBe(false);
    expect(hasCjk('hello 田中')).toBe(true);
    expect(hasCjk('hello')).toBe(false);
    expect(isAllCjk('田中さん')).toBe(true);
    expect(isAllCjk('田中 さん')).toBe(false);
    expect(isAllCjk('')).toBe(false);
  });
});

describe('stripPossessive', () => {
  it.each([
    ["Garry's", 'Garry'],
    ['Garry’s', 'Garry'],
    ["GARRY'S", 'GARRY'],
    ["Jones'", 'Jones'],
    ['Jones’', 'Jones'],
    ["Garry''s", 'Garry'],
    ['Garrys', 'Garrys'],
    ["it's", 'it'],
    ['Alice', 'Alice'],
    ['', ''],
  ])('%j → %j', (input, out) => {
    expect(stripPossessive(input)).toBe(out);
  });
});
