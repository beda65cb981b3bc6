import { Global, Module } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { LevelAssetCounts } from '@dam/access-levels';
import { CategoryAssetCounts } from '@dam/categories';
import { AssetQueries } from './ports/asset-queries.port';
import { CategoryAssetCountsService, LevelAssetCountsService } from './queries/asset-counts.service';
import { AssetFacetsRepository } from './queries/asset-facets.repository';
import { AssetQueriesRepository } from './queries/asset-queries.repository';
import { AssetQueriesService } from './queries/asset-queries.service';
import { AssetTalliesRepository } from './queries/asset-tallies.repository';
import { AssetSnapshotParts } from './trash/asset-snapshot';

/**
 * Binds the ports the assets area implements: AssetQueries (its own, for the areas above) and the asset
 * counts that access levels and categories declare, and the registry of the trash's snapshot parts
 * (AssetSnapshotParts). Global, so consumers just inject the abstract class.
 */
@Global()
@Module({
  imports: [AccessModule],
  providers: [
    AssetQueriesRepository,
    AssetQueriesService,
    AssetTalliesRepository,
    AssetFacetsRepository,
    LevelAssetCountsService,
    CategoryAssetCountsService,
    AssetSnapshotParts,
    { provide: AssetQueries, useExisting: AssetQueriesService },
    { provide: LevelAssetCounts, useExisting: LevelAssetCountsService },
    { provide: CategoryAssetCounts, useExisting: CategoryAssetCountsService },
  ],
  exports: [
    AssetQueries,
    LevelAssetCounts,
    CategoryAssetCounts,
    AssetQueriesService,
    AssetTalliesRepository,
    AssetSnapshotParts,
  ],
})
export class AssetPortsModule {}
