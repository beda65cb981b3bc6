/** The link of an access level to its parent: all that the tree rules need. */
export interface LevelLink {
  id: number;
  parentId: number | null;
}

/** A level with the levels shown below it. */
export interface LevelBranch<T extends LevelLink> {
  level: T;
  children: LevelBranch<T>[];
}

/** Direct children of every level, each list in id order. */
export function childrenByParent<T extends LevelLink>(levels: readonly T[]): Map<number, T[]> {
  const index = new Map<number, T[]>();
  for (const level of [...levels].sort((a, b) => a.id - b.id)) {
    if (level.parentId === null) continue;
    const list = index.get(level.parentId);
    if (list === undefined) index.set(level.parentId, [level]);
    else list.push(level);
  }
  return index;
}

/** `rootId` and every level below it (each once, even in corrupt cyclic data). */
export function subtreeIds(levels: readonly LevelLink[], rootId: number): Set<number> {
  const index = childrenByParent(levels);
  const found = new Set<number>([rootId]);
  const pending = [rootId];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    for (const child of index.get(id) ?? []) {
      if (found.has(child.id)) continue;
      found.add(child.id);
      pending.push(child.id);
    }
  }
  return found;
}

/**
 * The levels a reader is shown, as a forest. Only `visible` levels appear; with `rootId` only that level
 * and the levels below it are considered. A shown level whose parent is not shown (not visible, or
 * outside the scope) becomes a root, so a reader who may view a deep level still finds it. Roots and
 * children are in id order, except that `rootId` itself, when shown, comes first.
 */
export function visibleForest<T extends LevelLink>(
  levels: readonly T[],
  visible: ReadonlySet<number>,
  rootId?: number,
): LevelBranch<T>[] {
  const scope = rootId === undefined ? undefined : subtreeIds(levels, rootId);
  const shown = levels.filter(
    (level) => visible.has(level.id) && (scope === undefined || scope.has(level.id)),
  );
  const shownIds = new Set(shown.map((level) => level.id));
  const index = childrenByParent(shown);
  const placed = new Set<number>();
  const grow = (level: T): LevelBranch<T> => {
    placed.add(level.id);
    const children = (index.get(level.id) ?? []).filter((child) => !placed.has(child.id)).map(grow);
    return { level, children };
  };
  const roots = shown
    .filter((level) => level.parentId === null || !shownIds.has(level.parentId))
    .sort((a, b) => Number(b.id === rootId) - Number(a.id === rootId) || a.id - b.id);
  return roots.filter((level) => !placed.has(level.id)).map(grow);
}

/**
 * A moved level whose ancestry loops once `moves` (level id -> new parent id) are applied, or undefined
 * when the tree stays a tree. Checking the final state catches cycles made by several moves together.
 */
export function findCycle(
  levels: readonly LevelLink[],
  moves: ReadonlyMap<number, number | null>,
): number | undefined {
  const parentOf = new Map<number, number | null>(levels.map((level) => [level.id, level.parentId]));
  for (const [id, parentId] of moves) parentOf.set(id, parentId);
  const safe = new Set<number>();
  for (const start of moves.keys()) {
    const path = new Set<number>();
    let current: number | null | undefined = start;
    while (current !== null && current !== undefined && !safe.has(current)) {
      if (path.has(current)) return start;
      path.add(current);
      current = parentOf.get(current);
    }
    path.forEach((id) => safe.add(id));
  }
  return undefined;
}

/** Levels in an order where every level comes after all levels below it (for deleting together). */
export function deepestFirst<T extends LevelLink>(levels: readonly T[], all: readonly LevelLink[]): T[] {
  const parentOf = new Map(all.map((level) => [level.id, level.parentId]));
  const depth = (id: number): number => {
    let steps = 0;
    for (let p = parentOf.get(id) ?? null; p !== null && steps <= all.length; p = parentOf.get(p) ?? null)
      steps++;
    return steps;
  };
  return [...levels].sort((a, b) => depth(b.id) - depth(a.id) || a.id - b.id);
}
