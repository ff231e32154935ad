export type LineEdit = { op: 'equal' | 'delete' | 'insert'; line: string };

/**
 * Shortest line edit script from `a` to `b` (Myers' O(ND) algorithm, with the classic
 * backtrack over saved frontiers). Deletions come before insertions within a change.
 */
export function diffLines(a: readonly string[], b: readonly string[]): LineEdit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  v[offset + 1] = 0;
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }

  const edits: LineEdit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const frontier = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && frontier[offset + k - 1] < frontier[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = frontier[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      edits.push({ op: 'equal', line: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) edits.push({ op: 'insert', line: b[prevY] });
      else edits.push({ op: 'delete', line: a[prevX] });
    }
    x = prevX;
    y = prevY;
  }
  return edits.reverse();
}
