import { diffLines, type LineEdit } from './line-diff.js';

const PREFIX: Record<LineEdit['op'], string> = { equal: ' ', delete: '-', insert: '+' };

/** `start,count` of a hunk side; an empty side names the line before it, as diff(1) does. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

const splitLines = (text: string): string[] => (text === '' ? [] : text.split('\n'));

/**
 * Unified diff hunks (`@@ -a,b +c,d @@` and prefixed lines) between two texts, with
 * `context` lines around each change; changes closer than 2×context share a hunk.
 * Returns [] when the texts are equal.
 */
export function unifiedHunks(oldText: string, newText: string, context = 3): string[] {
  const edits = diffLines(splitLines(oldText), splitLines(newText));
  const changes = edits.flatMap((e, i) => (e.op === 'equal' ? [] : [i]));
  if (changes.length === 0) return [];

  // Group change indexes into hunks [first, last] of edit indexes, context included.
  const groups: Array<[number, number]> = [];
  for (const i of changes) {
    const last = groups[groups.length - 1];
    if (last && i - last[1] <= 2 * context + 1) last[1] = i;
    else groups.push([i, i]);
  }

  // Line numbers (1-based) in old/new before each edit index.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let nw = 1;
  for (const e of edits) {
    oldAt.push(o);
    newAt.push(nw);
    if (e.op !== 'insert') o++;
    if (e.op !== 'delete') nw++;
  }

  const out: string[] = [];
  for (const [first, last] of groups) {
    const from = Math.max(0, first - context);
    const to = Math.min(edits.length - 1, last + context);
    const slice = edits.slice(from, to + 1);
    const oldCount = slice.filter((e) => e.op !== 'insert').length;
    const newCount = slice.filter((e) => e.op !== 'delete').length;
    out.push(`@@ -${range(oldAt[from], oldCount)} +${range(newAt[from], newCount)} @@`);
    for (const e of slice) out.push(PREFIX[e.op] + e.line);
  }
  return out;
}
