import { deepestFirst, findCycle, subtreeIds, visibleForest } from './tree';

// 1 ─┬─ 2 ─── 4 ─── 6
//    └─ 3 ─── 5
// 7 (another top level)
const levels = [
  { id: 1, parentId: null },
  { id: 2, parentId: 1 },
  { id: 3, parentId: 1 },
  { id: 4, parentId: 2 },
  { id: 5, parentId: 3 },
  { id: 6, parentId: 4 },
  { id: 7, parentId: null },
];
const all = new Set(levels.map((level) => level.id));
type Shape = { id: number; children: Shape[] };
const shape = (forest: ReturnType<typeof visibleForest>): Shape[] =>
  forest.map((branch) => ({ id: branch.item.id, children: shape(branch.children) }));

describe('access level tree', () => {
  it('builds the whole forest in id order', () => {
    expect(shape(visibleForest(levels, all))).toEqual([
      {
        id: 1,
        children: [
          { id: 2, children: [{ id: 4, children: [{ id: 6, children: [] }] }] },
          { id: 3, children: [{ id: 5, children: [] }] },
        ],
      },
      { id: 7, children: [] },
    ]);
  });

  it('makes a visible level whose parent is invisible a root', () => {
    expect(shape(visibleForest(levels, new Set([1, 3, 4, 6, 7])))).toEqual([
      { id: 1, children: [{ id: 3, children: [] }] },
      { id: 4, children: [{ id: 6, children: [] }] },
      { id: 7, children: [] },
    ]);
  });

  it('restricts the forest to one subtree, the requested level first', () => {
    expect(shape(visibleForest(levels, all, 2))).toEqual([
      { id: 2, children: [{ id: 4, children: [{ id: 6, children: [] }] }] },
    ]);
    expect(shape(visibleForest(levels, new Set([3, 6, 2]), 2))).toEqual([
      { id: 2, children: [] },
      { id: 6, children: [] },
    ]);
    expect(visibleForest(levels, new Set([1]), 2)).toEqual([]);
  });

  it('collects a subtree, and ends on cyclic data', () => {
    expect([...subtreeIds(levels, 2)].sort()).toEqual([2, 4, 6]);
    const cyclic = [
      { id: 1, parentId: 2 },
      { id: 2, parentId: 1 },
    ];
    expect([...subtreeIds(cyclic, 1)].sort()).toEqual([1, 2]);
    expect(visibleForest(cyclic, new Set([1, 2]))).toEqual([]);
  });

  describe('cycle detection', () => {
    it('refuses a move under itself or a descendant', () => {
      expect(findCycle(levels, new Map([[2, 2]]))).toBe(2);
      expect(findCycle(levels, new Map([[2, 6]]))).toBe(2);
      expect(findCycle(levels, new Map([[1, 5]]))).toBe(1);
    });

    it('accepts moves elsewhere, to the top, and swaps that stay a tree', () => {
      expect(findCycle(levels, new Map([[2, 3]]))).toBeUndefined();
      expect(findCycle(levels, new Map([[6, null]]))).toBeUndefined();
      expect(
        findCycle(
          levels,
          new Map([
            [4, 1],
            [2, 4],
          ]),
        ),
      ).toBeUndefined();
    });

    it('catches a cycle made by two moves together', () => {
      const moves = new Map([
        [2, 5],
        [3, 4],
      ]);
      expect(findCycle(levels, moves)).toBeDefined();
    });
  });

  it('orders levels deepest first for deletion', () => {
    const chosen = levels.filter((level) => [1, 2, 4, 7].includes(level.id));
    expect(deepestFirst(chosen, levels).map((level) => level.id)).toEqual([4, 2, 1, 7]);
  });
});
