import { Injectable } from '@nestjs/common';
import { Viewer } from '@dam/access';
import { LevelAssetCounts } from '@dam/access-levels';
import { CategoryAssetCounts } from '@dam/categories';
import { AssetCountRepository } from './asset-count.repository';
import { AssetQueries } from './asset-queries.service';

/** Asset counts per access level, for the access-levels area (its LevelAssetCounts port). */
@Injectable()
export class LevelAssetCountsService extends LevelAssetCounts {
  constructor(
    private readonly queries: AssetQueries,
    private readonly repository: AssetCountRepository,
  ) {
    super();
  }

  countPerLevel(levelIds: number[] | undefined, viewer?: Viewer): Promise<Map<number, number>> {
    return this.queries.countPer('accessLevel', viewer === undefined ? {} : { visibleTo: viewer }, levelIds);
  }

  levelsWithAssets(levelIds: number[]): Promise<Set<number>> {
    return this.repository.linkedItems('accessLevel', levelIds);
  }
}

/** Asset counts per category, for the categories area (its CategoryAssetCounts port). */
@Injectable()
export class CategoryAssetCountsService extends CategoryAssetCounts {
  constructor(
    private readonly queries: AssetQueries,
    private readonly repository: AssetCountRepository,
  ) {
    super();
  }

  countPerCategory(categoryIds: number[] | undefined, viewer?: Viewer): Promise<Map<number, number>> {
    return this.queries.countPer('category', viewer === undefined ? {} : { visibleTo: viewer }, categoryIds);
  }

  hasAssets(categoryId: number): Promise<boolean> {
    return this.repository.hasLinkedAsset('category', categoryId);
  }
}
