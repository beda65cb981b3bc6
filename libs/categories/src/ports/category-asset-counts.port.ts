import { Viewer } from '@dam/access';

/**
 * Asset counts per category. The assets area owns the asset tables and implements this port (bound
 * globally), so this area never reads them.
 */
export abstract class CategoryAssetCounts {
  /** Assets directly in each category (only `categoryIds` when given); only those `viewer` sees when given. */
  abstract countPerCategory(categoryIds: number[] | undefined, viewer?: Viewer): Promise<Map<number, number>>;

  abstract hasAssets(categoryId: number): Promise<boolean>;
}
