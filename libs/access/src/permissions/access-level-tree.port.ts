import { LevelNode } from './permission-tree';

/**
 * The access level tree as permission inheritance needs it. The access-levels area owns the table and
 * implements this port (bound globally), so permissions need not read another area's table.
 */
export abstract class AccessLevelTree {
  abstract nodes(): Promise<LevelNode[]>;
}
