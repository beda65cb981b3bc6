import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TempChunkedFilesModule } from '@dam/temp-chunked-files';
import { AccessModule } from '@dam/access';
import { AssetSnapshotParts, AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { StoredObjectOwners } from '@dam/storage';
import { AssetContentController } from './asset-content.controller';
import { AssetContentSnapshot } from './asset-content.snapshot';
import { AssetDownloadsService } from './asset-downloads.service';
import { AssetFilesRepository } from './asset-files.repository';
import { AssetImagesController } from './asset-images.controller';
import { AssetImagesService } from './asset-images.service';
import { AssetUploadsService } from './asset-uploads.service';
import { ContentObjects } from './content-objects';
import { DownloadableContents } from './downloadable-contents';
import { DuplicateContent } from './duplicate-content';
import { EmbeddedDataReader } from './embedded-data.reader';
import { AssetFileEntity } from './entities/asset-file.entity';
import { AssetRenditionEntity } from './entities/asset-rendition.entity';
import { RenditionTaskEntity } from './entities/rendition-task.entity';
import { RegenerateRenditionsJob } from './regenerate-renditions.job';
import { RenditionMaker } from './rendition-maker';
import { RenditionTasksRepository } from './rendition-tasks.repository';
import { RenditionsService } from './renditions.service';
import { VerifyIntegrityJob } from './verify-integrity.job';

/**
 * Asset content: uploads, downloads, versions, renditions and conversions (DESIGN §7), the
 * `verify-integrity` and `regenerate-renditions` jobs, and the owner of the `assets/` (asset_files) and
 * `renditions/` (asset_renditions) storage prefixes for the orphan sweep; its rows' part of a trashed
 * asset's snapshot (AssetContentSnapshot).
 */
@Module({
  imports: [
    AccessModule,
    AssetsModule,
    AttributesModule,
    TempChunkedFilesModule,
    TypeOrmModule.forFeature([AssetFileEntity, AssetRenditionEntity, RenditionTaskEntity]),
  ],
  controllers: [AssetContentController, AssetImagesController],
  providers: [
    AssetFilesRepository,
    AssetUploadsService,
    AssetDownloadsService,
    AssetImagesService,
    DownloadableContents,
    ContentObjects,
    DuplicateContent,
    EmbeddedDataReader,
    RenditionMaker,
    RenditionTasksRepository,
    RenditionsService,
    VerifyIntegrityJob,
    RegenerateRenditionsJob,
    AssetContentSnapshot,
  ],
  exports: [RenditionsService, AssetUploadsService, DownloadableContents],
})
export class AssetContentModule implements OnModuleInit {
  constructor(
    private readonly owners: StoredObjectOwners,
    private readonly files: AssetFilesRepository,
    private readonly snapshotParts: AssetSnapshotParts,
    private readonly snapshot: AssetContentSnapshot,
  ) {}

  onModuleInit(): void {
    this.snapshotParts.register(this.snapshot);
    this.owners.register(
      'assets/',
      (keys) => this.files.referencedFileKeys(keys),
      () => this.files.fileKeys(),
    );
    this.owners.register(
      'renditions/',
      (keys) => this.files.referencedRenditionKeys(keys),
      () => this.files.renditionKeys(),
    );
  }
}
