import { describe, expect, it } from 'vitest';
import { ARM_CONFIDENCE, compareRankable, confidenceFor, passesGate, pointerRationale, rationaleFor, roundConfidence } from '../../../src/context/confidence.js';
import { clampWindowTurns, normalizeMaxPages, normalizeMaxPointers, normalizeMinConfidence } from '../../../src/context/knobs.js';

describe('knobs of the gate, cap and watch window', () => {
  it('min_confidence: a number in [0, 1], else 0.7', () => {
    expect(normalizeMinConfidence(0)).toBe(0);
    expect(normalizeMinConfidence(1)).toBe(1);
    expect(normalizeMinConfidence(0.5)).toBe(0.5);
    for (const bad of [Number.NaN, -1, 5, 2, '0.5', null, undefined]) expect(normalizeMinConfidence(bad)).toBe(0.7);
  });

  it('max_pages: not finite or < 1 → 3, else min(floor(n), 5)', () => {
    expect(normalizeMaxPages(1)).toBe(1);
    expect(normalizeMaxPages(2.9)).toBe(2);
    expect(normalizeMaxPages(5)).toBe(5);
    expect(normalizeMaxPages(99)).toBe(5);
    for (const bad of [0, 0.5, -2, Number.NaN, Number.POSITIVE_INFINITY, '4', undefined]) expect(normalizeMaxPages(bad)).toBe(3);
  });

  it('window turns: min(64, max(1, floor(n))); NaN or absent → the fallback', () => {
    expect(clampWindowTurns(0)).toBe(1);
    expect(clampWindowTurns(-3)).toBe(1);
    expect(clampWindowTurns(6.9)).toBe(6);
    expect(clampWindowTurns(999999)).toBe(64);
    expect(clampWindowTurns(Number.POSITIVE_INFINITY)).toBe(64);
    expect(clampWindowTurns(Number.NaN)).toBe(4);
    expect(clampWindowTurns(undefined)).toBe(4);
    expect(clampWindowTurns(undefined, 8)).toBe(8);
  });

  it('max pointers: a number > 0 (floored, ≥ 1), else 3', () => {
    expect(normalizeMaxPointers(2)).toBe(2);
    expect(normalizeMaxPointers(0.5)).toBe(1);
    expect(normalizeMaxPointers(0)).toBe(3);
    expect(normalizeMaxPointers(-1)).toBe(3);
    expect(normalizeMaxPointers('2')).toBe(3);
  });
});

describe('confidence', () => {
  it('bases and one boost, capped at 0.99, recomputed from the arm', () => {
    expect(ARM_CONFIDENCE).toEqual({ alias: 0.9, title: 0.8, 'title-surname': 0.72, 'cjk-title': 0.72, 'slug-suffix': 0.6 });
    const newest = { occurrences: 1, inNewestTurn: true, userMention: true };
    const twice = { occurrences: 2, inNewestTurn: true, userMention: true };
    const stale = { occurrences: 1, inNewestTurn: false, userMention: false };
    expect(confidenceFor('alias', newest)).toBe(0.9500000000000001);
    expect(confidenceFor('alias', twice)).toBe(0.9500000000000001);
    expect(confidenceFor('title', newest)).toBe(0.8500000000000001);
    expect(confidenceFor('title-surname', newest)).toBe(0.77);
    expect(confidenceFor('cjk-title', newest)).toBe(0.77);
    expect(confidenceFor('slug-suffix', newest)).toBe(0.65);
    expect(confidenceFor('alias', stale)).toBe(0.9);
    expect(confidenceFor('alias', undefined)).toBe(0.9);
    expect(confidenceFor('alias', { occurrences: 9, inNewestTurn: true, userMention: true })).toBeLessThanOrEqual(0.99);
  });

  it('the gate tolerates 1e-9', () => {
    expect(passesGate(0.7, 0.7)).toBe(true);
    expect(passesGate(0.7 - 5e-10, 0.7)).toBe(true);
    expect(passesGate(0.7 - 2e-9, 0.7)).toBe(false);
  });

  it('rationale templates', () => {
    const c = (occurrences: number, inNewestTurn: boolean, userMention: boolean) => ({ occurrences, inNewestTurn, userMention });
    expect(rationaleFor('alias', 'X', c(1, true, true), 4)).toBe('alias match "X"; mentioned in the newest turn');
    expect(rationaleFor('title', 'X', c(3, true, false), 4)).toBe('exact title match "X"; mentioned in 3 of last 4 turns; assistant-introduced');
    expect(rationaleFor('title-surname', 'X', c(1, false, true), 4)).toBe('surname match "X"');
    expect(rationaleFor('cjk-title', 'X', c(1, false, false), 2)).toBe('exact CJK title/slug match "X"; assistant-introduced');
    expect(rationaleFor('slug-suffix', 'X', undefined, 2)).toBe('slug match "X"');
    expect(pointerRationale('alias', 'Alice')).toBe('alias match "Alice"');
    expect(pointerRationale('title-surname', 'Ann B')).toBe('title-surname match "Ann B"');
  });

  it('order: confidence (1e-9 equal), rank, slug, scope position', () => {
    const r = (confidence: number, rank: number, slug: string, sourcePos = 0) => ({ confidence, rank, slug, sourcePos });
    const list = [r(0.8, 2, 'b'), r(0.8500000000000001, 5, 'z'), r(0.8 + 1e-10, 1, 'c'), r(0.8, 2, 'a', 1), r(0.8, 2, 'a', 0), r(0.8, Infinity, 'a')];
    expect(list.sort(compareRankable).map((x) => `${x.slug}${x.sourcePos}`)).toEqual(['z0', 'c0', 'a0', 'a1', 'b0', 'a0']);
  });
});

describe('roundConfidence: the one rule for printed confidences', () => {
  it('keeps two decimals, so computed doubles print as the spec writes them', () => {
    expect(roundConfidence(0.9500000000000001)).toBe(0.95);
    expect(roundConfidence(0.8500000000000001)).toBe(0.85);
    expect(roundConfidence(0.77)).toBe(0.77);
    expect(roundConfidence(0.99)).toBe(0.99);
    expect(roundConfidence(0.6)).toBe(0.6);
  });
});
