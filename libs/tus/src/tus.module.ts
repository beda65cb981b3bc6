import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '@dam/access';
import { AssetContentModule } from '@dam/asset-content';
import { StoredObjectOwners } from '@dam/storage';
import { TusLockEntity } from './entities/tus-lock.entity';
import { TusUploadEntity } from './entities/tus-upload.entity';
import { TusController } from './tus.controller';
import { TusPurgeJob } from './tus-purge.job';
import { TusService } from './tus.service';
import { TusUploadsRepository } from './tus-uploads.repository';

/**
 * tus 1.0 resumable uploads at `/rest/tus/` that become an asset's content (TusService), their
 * database-backed locks, the `purge-tus-uploads` job, and the owner of the `tus/` storage prefix.
 */
@Module({
  imports: [AccessModule, AssetContentModule, TypeOrmModule.forFeature([TusUploadEntity, TusLockEntity])],
  controllers: [TusController],
  providers: [TusUploadsRepository, TusService, TusPurgeJob],
  exports: [TusService],
})
export class TusModule implements OnModuleInit {
  constructor(
    private readonly owners: StoredObjectOwners,
    private readonly tus: TusService,
  ) {}

  onModuleInit(): void {
    this.owners.register('tus/', (keys) => this.tus.referencedKeys(keys));
  }
}
