import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { AccessLevelsModule } from '@dam/access-levels';
import { AttributesModule } from '@dam/attributes';
import { CategoriesModule } from '@dam/categories';
import { RootLinks } from '@dam/http';
import { StoredObjectOwners } from '@dam/storage';
import { AssetApprovalSteps } from './asset-approval-steps';
import { AssetApprovalsService } from './asset-approvals.service';
import { AssetChangesBuilder } from './asset-changes.builder';
import { AssetContentWrites } from './asset-content-writes.service';
import { AssetPortsModule } from './asset-ports.module';
import { AssetReader } from './asset-reader.service';
import { AssetReferences } from './asset-references.service';
import { AssetUpdatesService } from './asset-updates.service';
import { AssetWritesRepository } from './asset-writes.repository';
import { AssetMapper } from './asset.mapper';
import { AssetsController } from './assets.controller';
import { AssetsRepository } from './assets.repository';
import { AssetsService } from './assets.service';
import { AssetAttributeValueEntity } from './entities/asset-attribute-value.entity';
import {
  AssetAccessLevelEntity,
  AssetCategoryEntity,
  AssetParentEntity,
} from './entities/asset-links.entity';
import { AssetPendingEditEntity } from './entities/asset-pending-edit.entity';
import { AssetEntity } from './entities/asset.entity';
import { PendingApprovalsController } from './pending-approvals.controller';
import { PlannerStatistics } from './planner-statistics/planner-statistics.provider';
import { RebuildSearchIndexJob } from './rebuild-search-index.job';
import { AssetSnapshots } from './trash/asset-snapshots';
import { PurgeTrashJob } from './trash/purge-trash.job';
import { AttributeTypeChanges } from './search-reindex/attribute-type-changes';
import { ReindexAttributesJob } from './search-reindex/reindex-attributes.job';
import { ReindexRequestsRepository } from './search-reindex/reindex-requests.repository';
import { TrashController } from './trash/trash.controller';
import { TrashMapper } from './trash/trash.mapper';
import { TrashRepository } from './trash/trash.repository';
import { TrashService } from './trash/trash.service';
import { TrashedAssetEntity, TrashedAssetObjectEntity } from './trash/trashed-asset.entity';

/**
 * Assets: creation, representation, updates, deletion (into the trash) and the approval workflow. The ports it
 * implements for other areas are bound by AssetPortsModule; AssetEditLocks is bound by checkout.
 */
@Module({
  imports: [
    AccessModule,
    AccessLevelsModule,
    AttributesModule,
    CategoriesModule,
    AssetPortsModule,
    TypeOrmModule.forFeature([
      AssetEntity,
      AssetAccessLevelEntity,
      AssetCategoryEntity,
      AssetParentEntity,
      AssetAttributeValueEntity,
      AssetPendingEditEntity,
      TrashedAssetEntity,
      TrashedAssetObjectEntity,
    ]),
  ],
  controllers: [AssetsController, PendingApprovalsController, TrashController],
  providers: [
    AssetsRepository,
    AssetWritesRepository,
    AssetMapper,
    AssetReader,
    AssetReferences,
    AssetChangesBuilder,
    AssetsService,
    AssetUpdatesService,
    AssetApprovalsService,
    AssetApprovalSteps,
    AssetContentWrites,
    RebuildSearchIndexJob,
    ReindexRequestsRepository,
    ReindexAttributesJob,
    AttributeTypeChanges,
    PlannerStatistics,
    AssetSnapshots,
    TrashRepository,
    TrashService,
    TrashMapper,
    PurgeTrashJob,
  ],
  exports: [AssetReader, AssetMapper, AssetApprovalSteps, AssetContentWrites],
})
export class AssetsModule implements OnModuleInit {
  constructor(
    private readonly rootLinks: RootLinks,
    private readonly owners: StoredObjectOwners,
    private readonly trash: TrashRepository,
  ) {}

  onModuleInit(): void {
    this.owners.hold((keys) => this.trash.referencedKeys(keys));
    this.rootLinks.register('assetsUrl', 'assets');
    this.rootLinks.register('pendingUploadApprovalsUrl', 'pending-upload-approvals');
    this.rootLinks.register('pendingEditApprovalsUrl', 'pending-edit-approvals');
  }
}
