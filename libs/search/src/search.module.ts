import { Module, OnModuleInit } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { RootLinks } from '@dam/platform';
import { AssetSearchController } from './asset-search.controller';
import { AssetSearchRepository } from './asset-search.repository';
import { AssetSearchService } from './asset-search.service';
import { AssetSummaryMapper } from './asset-summary.mapper';
import { SearchPlanner } from './search-planner.service';

/** Asset search over the token index kept by the assets write path. */
@Module({
  imports: [AccessModule, AttributesModule, AssetsModule],
  controllers: [AssetSearchController],
  providers: [AssetSearchRepository, SearchPlanner, AssetSummaryMapper, AssetSearchService],
  exports: [AssetSearchRepository, SearchPlanner],
})
export class SearchModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('assetSearchUrl', 'asset-search');
  }
}
