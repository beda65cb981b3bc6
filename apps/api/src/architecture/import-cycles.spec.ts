import * as fs from 'node:fs';
import * as path from 'node:path';
import { libNames, read, ROOT, sourceFiles } from './house';

/**
 * No import runs back up inside a lib (docs/architecture.md, "Inside a lib"): among a lib's rooms (each
 * folder under src/, and each file directly in src/) the imports form no cycle. Between libs, the floors
 * of eslint.config.mjs already forbid one.
 */
type Graph = Map<string, Set<string>>;

/** The room of a file: its folder under src/, or the file itself when it sits directly in src/. */
function roomOf(src: string, file: string): string {
  const parts = path.relative(src, file).split(path.sep);
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : `${parts[0]}/`;
}

export function roomGraph(lib: string): Graph {
  const src = path.join(ROOT, 'libs', lib, 'src');
  const graph: Graph = new Map();
  for (const file of sourceFiles(`libs/${lib}/src`).filter((name) => !name.endsWith('.spec.ts'))) {
    const absolute = path.join(ROOT, file);
    const from = roomOf(src, absolute);
    for (const match of read(file).matchAll(/\bfrom\s+'(\.[^']*)'/g)) {
      const target = path.resolve(path.dirname(absolute), match[1]);
      const resolved = fs.existsSync(`${target}.ts`) ? `${target}.ts` : path.join(target, 'index.ts');
      const to = roomOf(src, resolved);
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of more than one room (Tarjan). */
export function cyclesOf(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (room: string): void => {
    index.set(room, next);
    low.set(room, next++);
    stack.push(room);
    onStack.add(room);
    for (const to of graph.get(room) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(room, Math.min(low.get(room) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(room, Math.min(low.get(room) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(room) !== index.get(room)) return;
    const component: string[] = [];
    let top: string | undefined;
    do {
      top = stack.pop();
      if (top === undefined) break;
      onStack.delete(top);
      component.push(top);
    } while (top !== room);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const room of graph.keys()) if (!index.has(room)) connect(room);
  return cycles;
}

describe('imports inside a lib', () => {
  it('finds a cycle where there is one (the check can fail)', () => {
    const graph: Graph = new Map([
      ['auth/', new Set(['users/'])],
      ['users/', new Set(['auth/', 'actor/'])],
    ]);
    expect(cyclesOf(graph)).toEqual([['auth/', 'users/']]);
  });

  it.each(libNames())('lib %s: no import runs back up among its rooms', (lib) => {
    expect(cyclesOf(roomGraph(lib))).toEqual([]);
  });
});
