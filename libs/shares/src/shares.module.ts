import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { AssetContentModule } from '@dam/asset-content';
import { LightboxesModule } from '@dam/lightboxes';
import { ShareItemEntity } from './entities/share-item.entity';
import { ShareEntity } from './entities/share.entity';
import { LightboxZipController } from './lightbox-zip.controller';
import { PublicSharesController } from './public-shares.controller';
import { PublicSharesService } from './public-shares.service';
import { PurgeExpiredSharesJob } from './purge-expired-shares.job';
import { ShareMapper } from './share.mapper';
import { SharesController } from './shares.controller';
import { SharesRepository } from './shares.repository';
import { SharesService } from './shares.service';
import { ContentZips } from './zip/content-zips';

/**
 * Shares (issue 33): revocable public links with expiry, password and download limits, their ZIP, the
 * signed-in ZIP of a lightbox, and the `purge-expired-shares` job. Above asset-content and lightboxes,
 * whose services it reads the assets through.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ShareEntity, ShareItemEntity]),
    AccessModule,
    AssetContentModule,
    LightboxesModule,
  ],
  controllers: [SharesController, PublicSharesController, LightboxZipController],
  providers: [
    SharesRepository,
    SharesService,
    PublicSharesService,
    ShareMapper,
    ContentZips,
    PurgeExpiredSharesJob,
  ],
})
export class SharesModule {}
