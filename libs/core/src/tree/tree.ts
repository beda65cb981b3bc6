/**
 * Walks over parent-linked trees (access levels, categories, keywords): the one home of these helpers.
 * Every walk ends, even on corrupt (cyclic) data edited by hand.
 */

/** The link of one node to its parent: all the tree rules need. */
export interface TreeLink {
  id: number;
  parentId: number | null;
}

export interface TreeNode<T extends TreeLink> {
  item: T;
  children: TreeNode<T>[];
}

/**
 * Builds the forest of nodes: every top-level node with its descendants, or, given `rootId`,
 * that one node with its descendants (empty when it is unknown). Children are in id order. Rows
 * caught in a cycle (impossible through the API, but data can be edited by hand) are never reached
 * from a root, so building always ends.
 */
export function buildForest<T extends TreeLink>(rows: readonly T[], rootId?: number): TreeNode<T>[] {
  const childrenOf = new Map<number, T[]>();
  for (const row of rows) {
    if (row.parentId === null) continue;
    const siblings = childrenOf.get(row.parentId) ?? [];
    siblings.push(row);
    childrenOf.set(row.parentId, siblings);
  }
  const visited = new Set<number>();
  const grow = (item: T): TreeNode<T> => {
    visited.add(item.id);
    const children = [...(childrenOf.get(item.id) ?? [])]
      .filter((child) => !visited.has(child.id))
      .sort((a, b) => a.id - b.id)
      .map(grow);
    return { item, children };
  };
  if (rootId !== undefined) {
    const root = rows.find((row) => row.id === rootId);
    return root === undefined ? [] : [grow(root)];
  }
  const ids = new Set(rows.map((row) => row.id));
  return rows
    .filter((row) => row.parentId === null || !ids.has(row.parentId))
    .sort((a, b) => a.id - b.id)
    .map(grow);
}

/** Ids of every node of the forest, parents before their children. */
export function idsOf<T extends TreeLink>(forest: readonly TreeNode<T>[]): number[] {
  const ids: number[] = [];
  const visit = (node: TreeNode<T>): void => {
    ids.push(node.item.id);
    node.children.forEach(visit);
  };
  forest.forEach(visit);
  return ids;
}

/**
 * True when placing `nodeId` under `newParentId` would make it its own ancestor: the new parent is
 * the node itself or one of its descendants. Walks up from the new parent, so it costs the depth.
 */
export function wouldCreateCycle(
  rows: readonly TreeLink[],
  nodeId: number,
  newParentId: number | null,
): boolean {
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  const seen = new Set<number>();
  let current = newParentId;
  while (current !== null && !seen.has(current)) {
    if (current === nodeId) return true;
    seen.add(current);
    current = parentOf.get(current) ?? null;
  }
  return current !== null;
}

/** Direct children of every level, each list in id order. */
export function childrenByParent<T extends TreeLink>(levels: readonly T[]): Map<number, T[]> {
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
export function subtreeIds(levels: readonly TreeLink[], rootId: number): Set<number> {
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
export function visibleForest<T extends TreeLink>(
  levels: readonly T[],
  visible: ReadonlySet<number>,
  rootId?: number,
): TreeNode<T>[] {
  const scope = rootId === undefined ? undefined : subtreeIds(levels, rootId);
  const shown = levels.filter(
    (level) => visible.has(level.id) && (scope === undefined || scope.has(level.id)),
  );
  const shownIds = new Set(shown.map((level) => level.id));
  const index = childrenByParent(shown);
  const placed = new Set<number>();
  const grow = (level: T): TreeNode<T> => {
    placed.add(level.id);
    const children = (index.get(level.id) ?? []).filter((child) => !placed.has(child.id)).map(grow);
    return { item: level, children };
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
  levels: readonly TreeLink[],
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
export function deepestFirst<T extends TreeLink>(levels: readonly T[], all: readonly TreeLink[]): T[] {
  const parentOf = new Map(all.map((level) => [level.id, level.parentId]));
  const depth = (id: number): number => {
    let steps = 0;
    for (let p = parentOf.get(id) ?? null; p !== null && steps <= all.length; p = parentOf.get(p) ?? null)
      steps++;
    return steps;
  };
  return [...levels].sort((a, b) => depth(b.id) - depth(a.id) || a.id - b.id);
}
