import { computeGrants, permissionSources } from './permission-tree';

describe('permission inheritance', () => {
  // 1 (top) -> 2 (inherits) -> 3 (own permissions) -> 4 (inherits); 5 top-level elsewhere
  const levels = [
    { id: 1, parentId: null, hasPermissions: false },
    { id: 2, parentId: 1, hasPermissions: false },
    { id: 3, parentId: 2, hasPermissions: true },
    { id: 4, parentId: 3, hasPermissions: false },
    { id: 5, parentId: null, hasPermissions: true },
  ];

  it('takes permissions from the nearest ancestor that holds them; top levels always hold their own', () => {
    const sources = permissionSources(levels);
    expect(Object.fromEntries(sources)).toEqual({ 1: 1, 2: 1, 3: 3, 4: 3, 5: 5 });
  });

  it('applies a top-level grant to inheriting descendants but not to a level with its own permissions', () => {
    const grants = computeGrants(levels, [{ accessLevelId: 1, permission: 'view' }]);
    expect(grants.has(1, 'view')).toBe(true);
    expect(grants.has(2, 'view')).toBe(true);
    expect(grants.has(3, 'view')).toBe(false);
    expect(grants.has(4, 'view')).toBe(false);
    expect(grants.levelsWith('view')).toEqual([1, 2]);
  });

  it('unions the permissions of several groups', () => {
    const grants = computeGrants(levels, [
      { accessLevelId: 3, permission: 'view' },
      { accessLevelId: 3, permission: 'edit' },
      { accessLevelId: 5, permission: 'view' },
    ]);
    expect(grants.has(4, 'edit')).toBe(true);
    expect(grants.onAny([1, 4], 'view')).toBe(true);
    expect(grants.onEvery([4, 5], 'view')).toBe(true);
    expect(grants.onEvery([4, 5], 'edit')).toBe(false);
    expect(grants.onEvery([], 'view')).toBe(false);
  });

  it('survives a cycle in corrupt data without looping', () => {
    const cyclic = [
      { id: 1, parentId: 2, hasPermissions: false },
      { id: 2, parentId: 1, hasPermissions: false },
    ];
    expect(permissionSources(cyclic).size).toBe(2);
  });
});
