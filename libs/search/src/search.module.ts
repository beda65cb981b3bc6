import { Module, OnModuleInit } from '@nestjs/common';
import { AccessModule } from '@dam/access';
import { AccessLevelsModule } from '@dam/access-levels';
import { AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { CategoriesModule } from '@dam/categories';
import { RootLinks } from '@dam/http';
import { AssetSearchController } from './asset-search.controller';
import { AssetSearchService } from './asset-search.service';
import { AssetSummaryMapper } from './asset-summary.mapper';
import { SearchCursors } from './search-cursor';
import { FacetLabels } from './search-facets';
import { SearchPlanner } from './search-planner.service';

/** Asset search: criteria become an AssetFilter that the assets area answers (AssetQueries). */
@Module({
  imports: [AccessModule, AccessLevelsModule, CategoriesModule, AttributesModule, AssetsModule],
  controllers: [AssetSearchController],
  providers: [SearchPlanner, AssetSummaryMapper, AssetSearchService, SearchCursors, FacetLabels],
  exports: [SearchPlanner],
})
export class SearchModule implements OnModuleInit {
  constructor(private readonly rootLinks: RootLinks) {}

  onModuleInit(): void {
    this.rootLinks.register('assetSearchUrl', 'asset-search');
  }
}
