import { Global, Module } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { LevelAssetCounts } from '@dam/access-levels';
import { CategoryAssetCounts } from '@dam/categories';
import { AssetCountRepository } from './queries/asset-count.repository';
import { CategoryAssetCountsService, LevelAssetCountsService } from './queries/asset-counts.service';
import { AssetFacetsRepository } from './queries/asset-facets.repository';
import { AssetPageRepository } from './queries/asset-page.repository';
import { AssetQueries } from './queries/asset-queries.service';
import { AssetStatesRepository } from './queries/asset-states.repository';
import { AssetTalliesRepository } from './queries/asset-tallies.repository';
import { AssetWordTalliesRepository } from './queries/asset-word-tallies.repository';
import { KeywordPlanRepository } from './queries/keyword-plan.repository';
import { QuerySources } from './queries/query-sources';
import { SortWalkRepository } from './queries/sort-walk.repository';
import { TalliedCounts } from './queries/tallied-counts.service';
import { AssetSnapshotParts } from './trash/asset-snapshot';

/**
 * AssetQueries (what the areas above ask about assets, injected as the class itself) with the classes
 * it asks, one per question, and the asset counts that access levels and categories declare as ports.
 * The registry of the trash's snapshot parts (AssetSnapshotParts) too. Global, so consumers just inject
 * AssetQueries or the abstract count ports.
 */
@Global()
@Module({
  imports: [AccessModule],
  providers: [
    QuerySources,
    AssetQueries,
    AssetPageRepository,
    SortWalkRepository,
    AssetCountRepository,
    TalliedCounts,
    AssetFacetsRepository,
    KeywordPlanRepository,
    AssetStatesRepository,
    AssetTalliesRepository,
    AssetWordTalliesRepository,
    LevelAssetCountsService,
    CategoryAssetCountsService,
    AssetSnapshotParts,
    { provide: LevelAssetCounts, useExisting: LevelAssetCountsService },
    { provide: CategoryAssetCounts, useExisting: CategoryAssetCountsService },
  ],
  exports: [
    AssetQueries,
    LevelAssetCounts,
    CategoryAssetCounts,
    AssetTalliesRepository,
    AssetWordTalliesRepository,
    AssetSnapshotParts,
  ],
})
export class AssetPortsModule {}
