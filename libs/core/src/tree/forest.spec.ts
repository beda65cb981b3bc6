import { buildForest as buildTree, idsOf, wouldCreateCycle } from './tree';

describe('tree: forests, ids and cycles', () => {
  // 1 -> (2 -> 4, 3); 5 alone
  const rows = [
    { id: 4, parentId: 2 },
    { id: 1, parentId: null },
    { id: 3, parentId: 1 },
    { id: 2, parentId: 1 },
    { id: 5, parentId: null },
  ];
  const shape = (forest: ReturnType<typeof buildTree>): unknown =>
    forest.map((node) => ({ id: node.item.id, children: shape(node.children) }));

  it('builds every top-level category with its descendants, in id order, leaves with []', () => {
    expect(shape(buildTree(rows))).toEqual([
      {
        id: 1,
        children: [
          { id: 2, children: [{ id: 4, children: [] }] },
          { id: 3, children: [] },
        ],
      },
      { id: 5, children: [] },
    ]);
  });

  it('builds from a given root, or nothing when the root is unknown', () => {
    expect(shape(buildTree(rows, 2))).toEqual([{ id: 2, children: [{ id: 4, children: [] }] }]);
    expect(buildTree(rows, 99)).toEqual([]);
    expect(buildTree([])).toEqual([]);
  });

  it('lists ids parents first', () => {
    expect(idsOf(buildTree(rows))).toEqual([1, 2, 4, 3, 5]);
  });

  it('ends on cyclic data: a cycle is unreachable from the roots, and from inside it each node once', () => {
    const cyclic = [...rows, { id: 6, parentId: 7 }, { id: 7, parentId: 6 }];
    expect(idsOf(buildTree(cyclic))).toEqual([1, 2, 4, 3, 5]);
    expect(shape(buildTree(cyclic, 6))).toEqual([{ id: 6, children: [{ id: 7, children: [] }] }]);
  });

  it('refuses moving a category under itself or a descendant, allows anything else', () => {
    expect(wouldCreateCycle(rows, 1, 1)).toBe(true);
    expect(wouldCreateCycle(rows, 1, 2)).toBe(true);
    expect(wouldCreateCycle(rows, 1, 4)).toBe(true);
    expect(wouldCreateCycle(rows, 2, 4)).toBe(true);
    expect(wouldCreateCycle(rows, 2, 3)).toBe(false);
    expect(wouldCreateCycle(rows, 4, 5)).toBe(false);
    expect(wouldCreateCycle(rows, 4, 1)).toBe(false);
    expect(wouldCreateCycle(rows, 2, null)).toBe(false);
  });

  it('refuses a move onto a chain that already loops, without looping itself', () => {
    const cyclic = [...rows, { id: 6, parentId: 7 }, { id: 7, parentId: 6 }];
    expect(wouldCreateCycle(cyclic, 1, 6)).toBe(true);
  });
});
