import { Viewer } from '@dam/access';

/**
 * Asset counts per access level. The assets area owns the asset tables and implements this port
 * (bound globally), so this area never reads them.
 */
export abstract class LevelAssetCounts {
  /** Assets directly in each level (only `levelIds` when given); only those `viewer` sees when given. */
  abstract countPerLevel(levelIds: number[] | undefined, viewer?: Viewer): Promise<Map<number, number>>;

  /** The ids among `levelIds` of levels that hold at least one asset. */
  abstract levelsWithAssets(levelIds: number[]): Promise<Set<number>>;
}
