import { AccessGrants } from './access-grants';
import { Permission } from './permission';

export interface LevelNode {
  id: number;
  parentId: number | null;
  hasPermissions: boolean;
}

export interface GroupPermissionRow {
  accessLevelId: number;
  permission: Permission;
}

/**
 * The level whose permissions apply to `levelId`: itself when it holds permissions, else the nearest
 * ancestor that does. Top-level levels always hold their own.
 */
export function permissionSources(levels: readonly LevelNode[]): Map<number, number> {
  const byId = new Map(levels.map((level) => [level.id, level]));
  const sources = new Map<number, number>();
  const resolve = (id: number, seen: Set<number>): number => {
    const known = sources.get(id);
    if (known !== undefined) return known;
    const level = byId.get(id);
    if (level === undefined) return id;
    let source: number;
    if (level.hasPermissions || level.parentId === null || seen.has(level.parentId)) source = id;
    else source = resolve(level.parentId, seen.add(id));
    sources.set(id, source);
    return source;
  };
  for (const level of levels) resolve(level.id, new Set());
  return sources;
}

/** Grants of a (non-privileged) actor from the permissions of all their groups, union over groups. */
export function computeGrants(
  levels: readonly LevelNode[],
  rows: readonly GroupPermissionRow[],
): AccessGrants {
  const held = new Map<number, Set<Permission>>();
  for (const row of rows) {
    const set = held.get(row.accessLevelId) ?? new Set<Permission>();
    set.add(row.permission);
    held.set(row.accessLevelId, set);
  }
  const sources = permissionSources(levels);
  const byLevel = new Map<number, Set<Permission>>();
  for (const level of levels) {
    const source = sources.get(level.id) ?? level.id;
    const permissions = held.get(source);
    if (permissions !== undefined && permissions.size > 0) byLevel.set(level.id, permissions);
  }
  return AccessGrants.of(
    byLevel,
    levels.map((level) => level.id),
  );
}
