import { Permission } from './permission';
import { computeGrants, GroupPermissionRow, LevelNode, permissionSources } from './permission-tree';

/** A level: id, parent (null for top-level) and whether it holds permissions of its own. */
const level = (id: number, parentId: number | null, hasPermissions: boolean): LevelNode => ({
  id,
  parentId,
  hasPermissions,
});

const grant = (accessLevelId: number, permission: Permission): GroupPermissionRow => ({
  accessLevelId,
  permission,
});

// 1 (top, flag off) -> 2 (inherits) -> 3 (own permissions) -> 4 (inherits) -> 6 (inherits);
// 5 top-level with its own; 7 under 5, own permissions.
const TREE = [
  level(1, null, false),
  level(2, 1, false),
  level(3, 2, true),
  level(4, 3, false),
  level(5, null, true),
  level(6, 4, false),
  level(7, 5, true),
];

describe('permissionSources (DESIGN §5: the nearest ancestor holding permissions)', () => {
  it.each<[string, LevelNode[], Record<number, number>]>([
    ['a lone top-level level holds its own, whatever its flag', [level(1, null, false)], { 1: 1 }],
    ['a child that inherits takes its parent', [level(1, null, true), level(2, 1, false)], { 1: 1, 2: 1 }],
    [
      'a child with its own permissions keeps them',
      [level(1, null, true), level(2, 1, true)],
      { 1: 1, 2: 2 },
    ],
    [
      'inheritance skips every inheriting ancestor up to the first holder',
      TREE,
      { 1: 1, 2: 1, 3: 3, 4: 3, 5: 5, 6: 3, 7: 7 },
    ],
    ['a level whose parent is unknown (orphan) resolves to that parent id', [level(2, 9, false)], { 2: 9 }],
    [
      'a cycle in corrupt data ends (each level on the cycle resolves somewhere on it)',
      [level(1, 2, false), level(2, 1, false)],
      { 1: 2, 2: 2 },
    ],
  ])('%s', (_case, levels, expected) => {
    expect(Object.fromEntries(permissionSources(levels))).toEqual(expected);
  });

  it('ends on a three-level cycle', () => {
    const cyclic = [level(1, 3, false), level(2, 1, false), level(3, 2, false)];
    expect(permissionSources(cyclic).size).toBe(3);
  });
});

describe('computeGrants (union over groups, inherited per level)', () => {
  it.each<[string, GroupPermissionRow[], Permission, number[]]>([
    ['no permissions grant nothing', [], 'view', []],
    ['a top-level grant reaches inheriting descendants only', [grant(1, 'view')], 'view', [1, 2]],
    ['a grant on a holder reaches its inheriting subtree', [grant(3, 'edit')], 'edit', [3, 4, 6]],
    ['a grant on an inheriting level applies to nothing', [grant(2, 'view'), grant(4, 'view')], 'view', []],
    ['grants of several groups add up', [grant(1, 'view'), grant(5, 'view')], 'view', [1, 2, 5]],
    ['the same grant twice counts once', [grant(7, 'approve'), grant(7, 'approve')], 'approve', [7]],
    ['a level keeps its own grants apart from its parent', [grant(5, 'delete')], 'delete', [5]],
    ['another permission is not implied', [grant(1, 'edit')], 'view', []],
  ])('%s', (_case, rows, permission, levels) => {
    expect(computeGrants(TREE, rows).levelsWith(permission)).toEqual(levels);
  });

  it.each<[string, number[], 'onAny' | 'onEvery', Permission, boolean]>([
    ['view on one of the levels suffices for onAny', [1, 4], 'onAny', 'view', true],
    ['onAny with no level is false', [], 'onAny', 'view', false],
    ['onEvery needs it on each level', [4, 5], 'onEvery', 'view', true],
    ['onEvery fails when one level lacks it', [4, 5], 'onEvery', 'edit', false],
    ['onEvery with no level is false', [], 'onEvery', 'view', false],
  ])('%s', (_case, levelIds, check, permission, expected) => {
    const grants = computeGrants(TREE, [grant(3, 'view'), grant(3, 'edit'), grant(5, 'view')]);
    expect(grants[check](levelIds, permission)).toBe(expected);
  });
});
