import { Client } from 'minio';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

/** The S3-compatible store for the mysql matrix: its settings as environment variables, and how to stop it. */
export interface TestObjectStore {
  env: Record<string, string>;
  /** Idempotent. */
  stop(): Promise<void>;
}

/** Stopping twice (a test that stops the store to see the app fail, then the cleanup) stops once. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => (stopping ??= stop());
}

/** The part of @20minutes/s3rver (untyped) used here. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  resetOnClose: boolean;
}) => S3rverServer;

/**
 * A fresh bucket for one test file. With MINIO_ENDPOINT set, on that real MinIO (emptied and removed on
 * stop); otherwise an in-process @20minutes/s3rver on a random port over a temp folder. The adapter
 * creates the bucket itself at boot, as in production.
 */
export async function startObjectStore(): Promise<TestObjectStore> {
  const bucket = `dam-test-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  return process.env.MINIO_ENDPOINT !== undefined && process.env.MINIO_ENDPOINT !== ''
    ? useRealMinio(process.env.MINIO_ENDPOINT, bucket)
    : startS3rver(bucket);
}

async function startS3rver(bucket: string): Promise<TestObjectStore> {
  const S3rver = createRequire(__filename)('@20minutes/s3rver') as S3rverClass;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, resetOnClose: false });
  const { port } = await server.run();
  return {
    env: {
      STORAGE_DRIVER: 'minio',
      MINIO_ENDPOINT: '127.0.0.1',
      MINIO_PORT: String(port),
      MINIO_USE_SSL: 'false',
      MINIO_ACCESS_KEY: 'S3RVER',
      MINIO_SECRET_KEY: 'S3RVER',
      MINIO_BUCKET: bucket,
    },
    stop: once(async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    }),
  };
}

async function useRealMinio(endPoint: string, bucket: string): Promise<TestObjectStore> {
  const env: Record<string, string> = {
    STORAGE_DRIVER: 'minio',
    MINIO_ENDPOINT: endPoint,
    MINIO_USE_SSL: process.env.MINIO_USE_SSL ?? 'false',
    MINIO_ACCESS_KEY: process.env.MINIO_ACCESS_KEY ?? 'minioadmin',
    MINIO_SECRET_KEY: process.env.MINIO_SECRET_KEY ?? 'minioadmin',
    MINIO_BUCKET: bucket,
  };
  if (process.env.MINIO_PORT !== undefined) env.MINIO_PORT = process.env.MINIO_PORT;
  const client = new Client({
    endPoint,
    port: env.MINIO_PORT === undefined ? undefined : Number(env.MINIO_PORT),
    useSSL: env.MINIO_USE_SSL === 'true',
    accessKey: env.MINIO_ACCESS_KEY,
    secretKey: env.MINIO_SECRET_KEY,
    pathStyle: true,
  });
  return {
    env,
    stop: once(async () => {
      if (!(await client.bucketExists(bucket))) return;
      const names: string[] = [];
      for await (const item of client.listObjectsV2(bucket, '', true))
        if (item.name !== undefined) names.push(item.name);
      for (let i = 0; i < names.length; i += 1000)
        await client.removeObjects(bucket, names.slice(i, i + 1000));
      await client.removeBucket(bucket);
    }),
  };
}
