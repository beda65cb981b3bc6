import { ConfigError } from './config-error';
import type { EnvReader } from './env-reader';

export interface MinioSettings {
  endPoint: string;
  port: number | undefined;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

/** MINIO_*: the object store, read when STORAGE_DRIVER=minio. */
export function readMinioSettings(read: EnvReader): MinioSettings {
  const endPoint = read.optionalString('MINIO_ENDPOINT');
  if (endPoint === undefined)
    throw new ConfigError('MINIO_ENDPOINT', 'is required when STORAGE_DRIVER=minio');
  const accessKey = read.optionalString('MINIO_ACCESS_KEY');
  if (accessKey === undefined)
    throw new ConfigError('MINIO_ACCESS_KEY', 'is required when STORAGE_DRIVER=minio');
  const secretKey = read.optionalString('MINIO_SECRET_KEY');
  if (secretKey === undefined)
    throw new ConfigError('MINIO_SECRET_KEY', 'is required when STORAGE_DRIVER=minio');
  const bucket = read.string('MINIO_BUCKET', 'dam');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError('MINIO_BUCKET', `is not a valid bucket name (got "${bucket}")`);
  }
  const portRaw = read.optionalString('MINIO_PORT');
  return {
    endPoint,
    port: portRaw === undefined ? undefined : read.integer('MINIO_PORT', 9000, 1, 65535),
    useSSL: read.boolean('MINIO_USE_SSL', false),
    accessKey,
    secretKey,
    bucket,
    region: read.string('MINIO_REGION', 'us-east-1'),
  };
}
