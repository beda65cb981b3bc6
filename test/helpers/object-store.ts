import { Client } from 'minio';
import { spawn } from 'node:child_process';
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

/** The service's settings for a bucket on an s3rver at `port` (its fixed credentials). */
export function s3rverEnv(port: number, bucket: string): Record<string, string> {
  return {
    STORAGE_DRIVER: 'minio',
    MINIO_ENDPOINT: '127.0.0.1',
    MINIO_PORT: String(port),
    MINIO_USE_SSL: 'false',
    MINIO_ACCESS_KEY: 'S3RVER',
    MINIO_SECRET_KEY: 'S3RVER',
    MINIO_BUCKET: bucket,
  };
}

/** Stopping twice (a test that stops the store to see the app fail, then the cleanup) stops once. */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => (stopping ??= stop());
}

/** An s3rver that a test can take down and bring back (on the same port, with the same objects). */
export interface RestartableObjectStore extends TestObjectStore {
  /** The server stops: open connections are cut and new ones refused; the objects stay on disk. */
  pause(): Promise<void>;
  /** The server serves again, on the same port. */
  resume(): Promise<void>;
}

/** The part of @20minutes/s3rver (untyped) used here. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections(): void };
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

/**
 * A fresh bucket on a real MinIO when MINIO_ENDPOINT is set, else on a @20minutes/s3rver in a child
 * process: for tests that measure this process's memory (the storage contract's 100 MB round trip), which
 * an in-process s3rver, holding parts as it assembles them, would add to.
 */
export async function startObjectStoreApart(): Promise<TestObjectStore> {
  const bucket = `dam-test-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  if (process.env.MINIO_ENDPOINT !== undefined && process.env.MINIO_ENDPOINT !== '')
    return useRealMinio(process.env.MINIO_ENDPOINT, bucket);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-s3rver-'));
  const script =
    "const S3rver = require('@20minutes/s3rver');" +
    'const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: process.argv[1] });' +
    "server.run().then((address) => process.stdout.write(String(address.port) + '\\n'));";
  const child = spawn(process.execPath, ['-e', script, directory], {
    cwd: path.join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return {
    env: s3rverEnv(port, bucket),
    stop: once(async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      fs.rmSync(directory, { recursive: true, force: true });
    }),
  };
}

/**
 * A fresh bucket on an in-process @20minutes/s3rver, whatever MINIO_ENDPOINT says: for tests that stop
 * and restart the store (fault tests), which a shared real MinIO cannot do for them.
 */
export async function startS3rver(
  bucket = `dam-test-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
): Promise<RestartableObjectStore> {
  const S3rver = createRequire(__filename)('@20minutes/s3rver') as S3rverClass;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-s3rver-'));
  const serve = async (port: number): Promise<{ server: S3rverServer; port: number }> => {
    const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, resetOnClose: false });
    return { server, port: (await server.run()).port };
  };
  const first = await serve(0);
  const port = first.port;
  let server = first.server;
  let running = true;
  const halt = async (): Promise<void> => {
    if (!running) return;
    running = false;
    const closed = server.close();
    server.httpServer?.closeAllConnections();
    await closed;
  };
  return {
    pause: halt,
    resume: async () => {
      if (running) return;
      ({ server } = await serve(port));
      running = true;
    },
    env: s3rverEnv(port, bucket),
    stop: once(async () => {
      await halt();
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
