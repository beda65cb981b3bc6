import { Module } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AppConfig, MinioSettings } from '@dam/core';
import { UrlService } from '@dam/http';
import { FilesController } from './files.controller';
import { FilesService } from './files.service';
import { FsObjectStorage } from './fs.storage';
import { ObjectDeletions } from './object-deletions';
import { ObjectStorage } from './object-storage.port';
import { StorageHealthIndicator } from './storage.health';
import { SweepOrphanObjectsJob } from './orphan-sweep.job';
import { StoredObjectOwners } from './stored-object-owners';
import { UrlSigner } from './url-signer';

/**
 * The S3 adapter, loaded on first use: the minio client is large, and a service on the embedded default
 * never needs it (idle memory, cold start).
 */
export async function createMinioStorage(
  settings: MinioSettings,
  timeoutMs?: number,
): Promise<ObjectStorage> {
  const { MinioObjectStorage } = await import('./minio.storage');
  return new MinioObjectStorage(settings, timeoutMs);
}

/** The adapter chosen by STORAGE_DRIVER, initialised (folder or bucket created) before the app serves. */
async function createObjectStorage(
  config: AppConfig,
  signer: UrlSigner,
  urls: UrlService,
): Promise<ObjectStorage> {
  let storage: ObjectStorage;
  if (config.storageDriver === 'minio') {
    if (config.minio === undefined) throw new Error('STORAGE_DRIVER=minio without MinIO settings');
    storage = await createMinioStorage(config.minio, config.storageTimeoutMs);
  } else {
    storage = new FsObjectStorage(config.dataDir, signer, urls);
  }
  await storage.init();
  return storage;
}

/**
 * Object storage (the `ObjectStorage` port), URL signing, the fs store's `/files` route, its health check
 * the queued deletions of replaced objects (`ObjectDeletions`, table object_deletions), and the
 * `sweep-orphan-objects` job over the prefixes owners register in `StoredObjectOwners`.
 */
@Module({
  controllers: [FilesController],
  providers: [
    UrlSigner,
    FilesService,
    HealthIndicatorService,
    StorageHealthIndicator,
    ObjectDeletions,
    StoredObjectOwners,
    SweepOrphanObjectsJob,
    { provide: ObjectStorage, inject: [AppConfig, UrlSigner, UrlService], useFactory: createObjectStorage },
  ],
  exports: [ObjectStorage, UrlSigner, StorageHealthIndicator, ObjectDeletions, StoredObjectOwners],
})
export class StorageModule {}
