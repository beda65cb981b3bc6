import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TempChunkedFilesModule } from '@dam/temp-chunked-files';
import { AccessModule } from '@dam/access';
import { AssetsModule } from '@dam/assets';
import { AttributesModule } from '@dam/attributes';
import { AssetContentController } from './asset-content.controller';
import { AssetDownloadsService } from './asset-downloads.service';
import { AssetFilesRepository } from './asset-files.repository';
import { AssetImagesController } from './asset-images.controller';
import { AssetImagesService } from './asset-images.service';
import { AssetUploadsService } from './asset-uploads.service';
import { ContentObjects } from './content-objects';
import { EmbeddedDataReader } from './embedded-data.reader';
import { AssetFileEntity } from './entities/asset-file.entity';
import { AssetRenditionEntity } from './entities/asset-rendition.entity';
import { RenditionsService } from './renditions.service';

/** Asset content: uploads, downloads, versions, renditions and conversions (DESIGN §7). */
@Module({
  imports: [
    AccessModule,
    AssetsModule,
    AttributesModule,
    TempChunkedFilesModule,
    TypeOrmModule.forFeature([AssetFileEntity, AssetRenditionEntity]),
  ],
  controllers: [AssetContentController, AssetImagesController],
  providers: [
    AssetFilesRepository,
    AssetUploadsService,
    AssetDownloadsService,
    AssetImagesService,
    ContentObjects,
    EmbeddedDataReader,
    RenditionsService,
  ],
  exports: [RenditionsService],
})
export class AssetContentModule {}
