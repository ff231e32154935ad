import { describe, expect, it } from 'vitest';
import { noPendingEditsMessage, renderCoreDiff } from '../../../src/core-memory/core-diff.js';
import { diffLines, type LineEdit } from '../../../src/core-memory/line-diff.js';
import { unifiedHunks } from '../../../src/core-memory/unified-diff.js';

/** Length of a longest common subsequence, by dynamic programming (the reference). */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

const apply = (edits: LineEdit[]) => ({
  old: edits.filter((e) => e.op !== 'insert').map((e) => e.line),
  new: edits.filter((e) => e.op !== 'delete').map((e) => e.line),
});

/** Deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('diffLines', () => {
  it('handles empty inputs', () => {
    expect(diffLines([], [])).toEqual([]);
    expect(diffLines([], ['a'])).toEqual([{ op: 'insert', line: 'a' }]);
    expect(diffLines(['a'], [])).toEqual([{ op: 'delete', line: 'a' }]);
  });

  it('produces a minimal script that rebuilds both sides (randomised against an LCS reference)', () => {
    const random = rng(42);
    for (let round = 0; round < 300; round++) {
      const gen = () => Array.from({ length: Math.floor(random() * 12) }, () => 'abcd'[Math.floor(random() * 4)]);
      const a = gen();
      const b = gen();
      const edits = diffLines(a, b);
      expect(apply(edits)).toEqual({ old: a, new: b });
      const changes = edits.filter((e) => e.op !== 'equal').length;
      expect(changes).toBe(a.length + b.length - 2 * lcsLength(a, b));
    }
  });
});

describe('unifiedHunks', () => {
  it('returns no hunk for equal texts', () => {
    expect(unifiedHunks('a\nb', 'a\nb')).toEqual([]);
  });

  it('writes 3 lines of context and diff(1) ranges', () => {
    const old = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n');
    const next = ['1', '2', '3', '4', '5', 'six', '7', '8', '9', '10'].join('\n');
    expect(unifiedHunks(old, next)).toEqual(['@@ -3,7 +3,7 @@', ' 3', ' 4', ' 5', '-6', '+six', ' 7', ' 8', ' 9']);
  });

  it('splits distant changes into separate hunks and merges close ones', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `l${i + 1}`);
    const far = [...lines];
    far[1] = 'X';
    far[18] = 'Y';
    expect(unifiedHunks(lines.join('\n'), far.join('\n')).filter((l) => l.startsWith('@@'))).toEqual(['@@ -1,5 +1,5 @@', '@@ -16,5 +16,5 @@']);
    const near = [...lines];
    near[4] = 'X';
    near[11] = 'Y'; // 6 unchanged lines between: one hunk
    expect(unifiedHunks(lines.join('\n'), near.join('\n')).filter((l) => l.startsWith('@@'))).toEqual(['@@ -2,14 +2,14 @@']);
    const apart = [...lines];
    apart[4] = 'X';
    apart[12] = 'Y'; // 7 unchanged lines between: two hunks
    expect(unifiedHunks(lines.join('\n'), apart.join('\n')).filter((l) => l.startsWith('@@'))).toHaveLength(2);
  });

  it('names the line before an empty side, and omits a count of 1', () => {
    expect(unifiedHunks('', 'a\nb')).toEqual(['@@ -0,0 +1,2 @@', '+a', '+b']);
    expect(unifiedHunks('a', '')).toEqual(['@@ -1 +0,0 @@', '-a']);
    expect(unifiedHunks('a\nb', 'a\nb\nc')).toEqual(['@@ -1,2 +1,3 @@', ' a', ' b', '+c']);
  });
});

describe('core diff', () => {
  it('heads the diff with <ref>@r<base> / <ref>@r<current>', () => {
    expect(renderCoreDiff({ source_id: 'default', slug: 'prefs', baseRevision: 2, currentRevision: 4, baseText: 'Short.', currentText: 'Short, edited.' })).toBe(
      '--- prefs@r2\n+++ prefs@r4\n@@ -1 +1 @@\n-Short.\n+Short, edited.',
    );
    expect(renderCoreDiff({ source_id: 'work', slug: 'p', baseRevision: 1, currentRevision: 2, baseText: 'x', currentText: 'x' })).toBe('--- work:p@r1\n+++ work:p@r2');
  });

  it('says when nothing is pending', () => {
    expect(noPendingEditsMessage('work', 'p')).toBe('no unacknowledged remote edits for work:p');
    expect(noPendingEditsMessage('default', 'p')).toBe('no unacknowledged remote edits for p');
  });
});
