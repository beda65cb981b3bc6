import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { s3rverEnv, startObjectStore, TestObjectStore } from './object-store';

/** The parts of @20minutes/s3rver (untyped, a Koa app) used here. */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverServer {
  middleware: Middleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
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
  allowMismatchedSignatures: boolean;
}) => S3rverServer;

const xml = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

/**
 * The multipart calls @tus/s3-store needs that s3rver lacks (../shared/STACK.md): ListParts
 * (`GET /{bucket}/{key}?uploadId=`) and AbortMultipartUpload (`DELETE ...?uploadId=`), answered from the
 * folder where s3rver keeps an upload's parts (`{n}` and `{n}.md5`). MinIO and S3 answer them natively.
 */
function multipartCalls(server: S3rverServer): Middleware {
  return async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const listing = ctx.method === 'GET' && ctx.query.partNumber === undefined;
    if (
      typeof uploadId !== 'string' ||
      !/^[0-9a-f]+$/.test(uploadId) ||
      !(listing || ctx.method === 'DELETE')
    ) {
      return next();
    }
    const [bucket, ...keyParts] = decodeURIComponent(ctx.path).replace(/^\//, '').split('/');
    const folder = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (!fs.existsSync(folder)) {
      ctx.status = 404;
      ctx.type = 'application/xml';
      ctx.body = xml(
        `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`,
      );
      return;
    }
    if (ctx.method === 'DELETE') {
      fs.rmSync(folder, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = '';
      return;
    }
    const numbers = fs
      .readdirSync(folder)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => a - b);
    const parts = numbers.map((number) => {
      const file = path.join(folder, String(number));
      const stat = fs.statSync(file);
      const md5 = fs.readFileSync(`${file}.md5`, 'utf8').trim();
      return `<Part><PartNumber>${number}</PartNumber><LastModified>${stat.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${stat.size}</Size></Part>`;
    });
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = xml(
      `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${keyParts.join('/')}</Key><UploadId>${uploadId}</UploadId><PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  };
}

/**
 * The object store for tus tests on the mysql matrix: a real MinIO when MINIO_ENDPOINT is set, else an
 * in-process @20minutes/s3rver with the multipart listing and abort that @tus/s3-store relies on (and
 * tolerant of the signature of the AWS SDK's DeleteObjects, which s3rver computes differently).
 */
export async function startMultipartObjectStore(): Promise<TestObjectStore> {
  if (process.env.MINIO_ENDPOINT !== undefined && process.env.MINIO_ENDPOINT !== '')
    return startObjectStore();
  const bucket = `dam-tus-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const S3rver = createRequire(__filename)('@20minutes/s3rver') as S3rverClass;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    resetOnClose: false,
    // s3rver computes another signature than the AWS SDK for DeleteObjects (`POST /{bucket}?delete`).
    allowMismatchedSignatures: true,
  });
  server.middleware.unshift(multipartCalls(server));
  const { port } = await server.run();
  let stopping: Promise<void> | undefined;
  return {
    env: s3rverEnv(port, bucket),
    stop: () =>
      (stopping ??= (async () => {
        const closed = server.close();
        server.httpServer?.closeAllConnections();
        await closed;
        fs.rmSync(directory, { recursive: true, force: true });
      })()),
  };
}
