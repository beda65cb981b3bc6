import { Module } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { UrlService } from '../http/url.service';
import { FilesController } from './files.controller';
import { FilesService } from './files.service';
import { FsObjectStorage } from './fs.storage';
import { MinioObjectStorage } from './minio.storage';
import { ObjectStorage } from './object-storage.port';
import { StorageHealthIndicator } from './storage.health';
import { UrlSigner } from './url-signer';

/** The adapter chosen by STORAGE_DRIVER, initialised (folder or bucket created) before the app serves. */
async function createObjectStorage(
  config: AppConfig,
  signer: UrlSigner,
  urls: UrlService,
): Promise<ObjectStorage> {
  let storage: ObjectStorage;
  if (config.storageDriver === 'minio') {
    if (config.minio === undefined) throw new Error('STORAGE_DRIVER=minio without MinIO settings');
    storage = new MinioObjectStorage(config.minio);
  } else {
    storage = new FsObjectStorage(config.dataDir, signer, urls);
  }
  await storage.init();
  return storage;
}

/** Object storage (the `ObjectStorage` port), URL signing, the fs store's `/files` route and its health check. */
@Module({
  controllers: [FilesController],
  providers: [
    UrlSigner,
    FilesService,
    HealthIndicatorService,
    StorageHealthIndicator,
    { provide: ObjectStorage, inject: [AppConfig, UrlSigner, UrlService], useFactory: createObjectStorage },
  ],
  exports: [ObjectStorage, UrlSigner, StorageHealthIndicator],
})
export class StorageModule {}
