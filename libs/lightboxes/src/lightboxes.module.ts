import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { AssetSnapshotParts, AssetsModule } from '@dam/assets';
import { RootLinks } from '@dam/http';
import { LightboxAssetEntity } from './entities/lightbox-asset.entity';
import { LightboxEntity } from './entities/lightbox.entity';
import { LightboxAssets } from './lightbox-assets';
import { LightboxContentsController } from './lightbox-contents.controller';
import { LightboxContentsRepository } from './lightbox-contents.repository';
import { LightboxContentsService } from './lightbox-contents.service';
import { LightboxContentsSnapshot } from './lightbox-contents.snapshot';
import { LightboxMapper } from './lightbox.mapper';
import { LightboxesController, OwnLightboxesController } from './lightboxes.controller';
import { LightboxesRepository } from './lightboxes.repository';
import { LightboxesService } from './lightboxes.service';

/** Users' lightboxes and the assets in them (spec 4.4), and their part of a trashed asset's snapshot. */
@Module({
  imports: [TypeOrmModule.forFeature([LightboxEntity, LightboxAssetEntity]), AccessModule, AssetsModule],
  controllers: [LightboxesController, OwnLightboxesController, LightboxContentsController],
  providers: [
    LightboxesRepository,
    LightboxesService,
    LightboxContentsRepository,
    LightboxContentsService,
    LightboxMapper,
    LightboxContentsSnapshot,
    LightboxAssets,
  ],
  exports: [LightboxAssets],
})
export class LightboxesModule implements OnModuleInit {
  constructor(
    private readonly rootLinks: RootLinks,
    private readonly snapshotParts: AssetSnapshotParts,
    private readonly snapshot: LightboxContentsSnapshot,
  ) {}

  onModuleInit(): void {
    this.snapshotParts.register(this.snapshot);
    this.rootLinks.register('lightboxesUrl', 'lightboxes');
  }
}
