import type { DataStore, Server, ServerOptions } from '@tus/server';
import type { MinioSettings } from '@dam/core';
import type { Readable } from 'node:stream';

/** A tus store that can also read a finished upload back (both FileStore and S3Store can). */
export type ReadableDataStore = DataStore & { read(id: string): Readable | Promise<Readable> };

/** Where tus keeps uploads: files beside the fs store's objects, or the MinIO bucket. */
export type TusStoreSettings =
  | { kind: 'fs'; directory: string; expirationMs: number }
  | { kind: 's3'; minio: MinioSettings; expirationMs: number };

/** The extensions offered: @tus/server implements the first four; `checksum` is TusService's. */
export const TUS_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'expiration', 'checksum'];

/** S3 parts of tus uploads: S3's minimum is 5 MiB; each is staged in a temp file, not in memory. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * @tus/file-store or @tus/s3-store, loaded on first use: @tus/* are ES modules (required here, Node
 * 20.19+), and the S3 store brings the AWS SDK, which a service that never sees a tus request should not
 * carry (idle memory, cold start).
 */
export async function createTusStore(settings: TusStoreSettings): Promise<ReadableDataStore> {
  let store: ReadableDataStore;
  if (settings.kind === 'fs') {
    const { FileStore } = await import('@tus/file-store');
    store = new FileStore({
      directory: settings.directory,
      expirationPeriodInMilliseconds: settings.expirationMs,
    });
  } else {
    const { S3Store } = await import('@tus/s3-store');
    const { minio } = settings;
    const scheme = minio.useSSL ? 'https' : 'http';
    const port = minio.port === undefined ? '' : `:${minio.port}`;
    store = new S3Store({
      partSize: PART_BYTES,
      // Expiry is kept in the database (tus_uploads.created_at), not in object tags.
      useTags: false,
      expirationPeriodInMilliseconds: settings.expirationMs,
      maxConcurrentPartUploads: 4,
      s3ClientConfig: {
        bucket: minio.bucket,
        region: minio.region,
        endpoint: `${scheme}://${minio.endPoint}${port}`,
        forcePathStyle: true,
        credentials: { accessKeyId: minio.accessKey, secretAccessKey: minio.secretKey },
        // Otherwise streamed parts are sent (and stored by some S3 servers) with aws-chunked framing.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      },
    });
  }
  // Deferred lengths are not offered: the content replaces an asset's, so its size is known up front.
  store.extensions = [...TUS_EXTENSIONS];
  return store;
}

export async function createTusServer(
  datastore: DataStore,
  options: Omit<ServerOptions, 'locker'> & Pick<ServerOptions, 'locker'>,
): Promise<Server> {
  const { Server } = await import('@tus/server');
  return new Server({ ...options, datastore });
}
