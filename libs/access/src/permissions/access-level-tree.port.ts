import { LevelNode } from './permission-tree';

/**
 * The generation (CacheGenerations) the implementer bumps with every change of the tree, and which
 * caches built on the tree (the grants) follow.
 */
export const ACCESS_LEVELS_GENERATION = 'access-levels';

/**
 * The access level tree as permission inheritance needs it. The access-levels area owns the table and
 * implements this port (bound globally), so permissions need not read another area's table.
 */
export abstract class AccessLevelTree {
  /** Every level (cached by the implementer; callers must not change the array or its nodes). */
  abstract nodes(): Promise<readonly LevelNode[]>;
}
