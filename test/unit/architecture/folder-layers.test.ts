// The source folders form layers: no folder imports, directly or through others, a folder that
// imports it. A cycle between folders is how a house of small files turns into one tangle, so
// this test names the imports that close one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const TREES = ['src', 'streams', 'projections'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** `src/<folder>` for files in a folder of src, the file itself for files at src's top, else the top folder. */
function unitOf(path: string): string {
  const parts = relative(ROOT, path).split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length > 2 ? `src/${parts[1]}` : parts.join('/');
}

/** Every relative import (type-only ones too: they tie the folders as much) between two units. */
function unitImports(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of TREES.flatMap((t) => sourceFiles(join(ROOT, t)))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+['"](\.[^'"]+)['"]/gms)) {
      const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
      const [from, to] = [unitOf(file), unitOf(target)];
      if (from === to) continue;
      const out = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, out);
      out.set(to, [...(out.get(to) ?? []), `${relative(ROOT, file)} → ${relative(ROOT, target)}`]);
    }
  }
  return graph;
}

/** Strongly connected groups of more than one unit (Tarjan). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the source folders', () => {
  it('import each other in one direction only: no cycle between folders', () => {
    const graph = unitImports();
    expect(graph.size).toBeGreaterThan(20);
    const closing = cycles(graph).map((group) =>
      group.flatMap((from) => [...(graph.get(from) ?? new Map<string, string[]>())].filter(([to]) => group.includes(to)).flatMap(([, edges]) => edges)),
    );
    expect(closing).toEqual([]);
  });

  it('are told apart by the check: a cycle made on purpose is found', () => {
    const graph = new Map([
      ['a', new Map([['b', ['a.ts → b.ts']]])],
      ['b', new Map([['c', ['b.ts → c.ts']]])],
      ['c', new Map([['a', ['c.ts → a.ts']]])],
      ['d', new Map([['a', ['d.ts → a.ts']]])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });
});
