/** The link of one category to its parent: all the tree rules need. */
export interface CategoryLink {
  id: number;
  parentId: number | null;
}

export interface TreeNode<T extends CategoryLink> {
  item: T;
  children: TreeNode<T>[];
}

/**
 * Builds the forest of categories: every top-level category with its descendants, or, given `rootId`,
 * that one category with its descendants (empty when it is unknown). Children are in id order. Rows
 * caught in a cycle (impossible through the API, but data can be edited by hand) are never reached
 * from a root, so building always ends.
 */
export function buildTree<T extends CategoryLink>(rows: readonly T[], rootId?: number): TreeNode<T>[] {
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
export function idsOf<T extends CategoryLink>(forest: readonly TreeNode<T>[]): number[] {
  const ids: number[] = [];
  const visit = (node: TreeNode<T>): void => {
    ids.push(node.item.id);
    node.children.forEach(visit);
  };
  forest.forEach(visit);
  return ids;
}

/**
 * True when placing `categoryId` under `newParentId` would make it its own ancestor: the new parent is
 * the category itself or one of its descendants. Walks up from the new parent, so it costs the depth.
 */
export function wouldCreateCycle(
  rows: readonly CategoryLink[],
  categoryId: number,
  newParentId: number | null,
): boolean {
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  const seen = new Set<number>();
  let current = newParentId;
  while (current !== null && !seen.has(current)) {
    if (current === categoryId) return true;
    seen.add(current);
    current = parentOf.get(current) ?? null;
  }
  return current !== null;
}
