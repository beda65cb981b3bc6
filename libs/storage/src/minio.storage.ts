import { Logger } from '@nestjs/common';
import { Client, CopyDestinationOptions, CopySourceOptions, S3Error } from 'minio';
import * as http from 'node:http';
import { IncomingMessage } from 'node:http';
import * as https from 'node:https';
import { Readable } from 'node:stream';
import { MinioSettings } from '@dam/core';
import { DependencyTimeout } from '@dam/errors';
import { contentDisposition } from './content-disposition';
import { assertValidKey, assertValidPrefix } from './object-key';
import {
  ByteRange,
  ObjectNotFound,
  ObjectStat,
  ObjectStorage,
  SignedUrlOptions,
  StoredObject,
} from './object-storage.port';
import { byteSlice, concatenated, measure } from './object-streams';
import { PartReader } from './part-reader';

/** 8 MiB parts: two in memory per upload, objects up to 10,000 parts (78 GiB). */
const PART_SIZE = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;
/** S3's smallest part: every compose source but the last must be at least this big. */
const MIN_COMPOSE_PART = 5 * 1024 * 1024;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const DELETE_BATCH = 1000;
const MISSING_CODES = new Set(['NoSuchKey', 'NotFound']);
/** Default for a request that makes no progress (DAM_STORAGE_TIMEOUT_MS). */
const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Objects in one S3-compatible bucket (MinIO in production, s3rver in tests). Uploads are cut into
 * bounded parts here rather than by the client's `putObject`, which buffers unknown-size streams and
 * needs ListMultipartUploads, which test servers lack.
 */
export class MinioObjectStorage extends ObjectStorage {
  private readonly logger = new Logger('MinioObjectStorage');
  private readonly bucket: string;
  private composeUnsupported = false;

  constructor(
    private readonly settings: MinioSettings,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    private readonly client: Client = createClient(settings, timeoutMs),
  ) {
    super();
    this.bucket = settings.bucket;
  }

  async init(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.settings.region);
    } catch (error) {
      // Another instance created it in between.
      if (!(
        error instanceof S3Error &&
        ['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(error.code ?? '')
      )) {
        throw error;
      }
    }
  }

  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket)))
      throw new Error(`bucket ${this.bucket} does not exist`);
  }

  async put(key: string, body: Readable, options: { contentType?: string } = {}): Promise<StoredObject> {
    assertValidKey(key);
    const headers = { 'Content-Type': options.contentType ?? 'application/octet-stream' };
    const reader = new PartReader(body, PART_SIZE);
    try {
      const first = await reader.read();
      const second = await reader.read();
      if (first === undefined) throw new Error('unreachable: the first part always exists');
      if (second === undefined) {
        await this.client.putObject(this.bucket, key, first, first.length, headers);
      } else {
        await this.putMultipart(key, headers, reader, first, second);
      }
      return { key, size: reader.size, sha256: reader.sha256() };
    } catch (error) {
      body.destroy();
      throw error;
    } finally {
      reader.release();
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    try {
      if (range === undefined) return await this.client.getObject(this.bucket, key);
      const body = await this.client.getPartialObject(
        this.bucket,
        key,
        range.start,
        range.end - range.start + 1,
      );
      return trimToRange(body, range);
    } catch (error) {
      throw isMissing(error) ? new ObjectNotFound(key) : error;
    }
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    assertValidKey(key);
    try {
      const stat = await this.client.statObject(this.bucket, key);
      return { size: stat.size, etag: stat.etag, lastModified: stat.lastModified };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    let batch: string[] = [];
    for await (const key of this.list(prefix)) {
      batch.push(key);
      if (batch.length === DELETE_BATCH) {
        await this.removeBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await this.removeBatch(batch);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertValidPrefix(prefix);
    for await (const item of this.client.listObjectsV2(this.bucket, prefix, true)) {
      if (item.name !== undefined) yield item.name;
    }
  }

  async concatenate(sourceKeys: string[], targetKey: string): Promise<StoredObject> {
    assertValidKey(targetKey);
    sourceKeys.forEach(assertValidKey);
    const composed = await this.tryCompose(sourceKeys, targetKey);
    return (
      composed ??
      this.put(
        targetKey,
        concatenated(sourceKeys, (key) => this.get(key)),
      )
    );
  }

  async signedGetUrl(key: string, options: SignedUrlOptions): Promise<string> {
    assertValidKey(key);
    const expiry = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.ceil(options.expirySeconds)));
    const responseHeaders: Record<string, string> = {
      'response-content-disposition': contentDisposition(options.filename, options.contentType),
    };
    if (options.contentType !== undefined) responseHeaders['response-content-type'] = options.contentType;
    return this.client.presignedGetObject(this.bucket, key, expiry, responseHeaders);
  }

  /** Uploads `first`, `second` and the rest of `reader` as one multipart upload, one part ahead. */
  private async putMultipart(
    key: string,
    headers: Record<string, string>,
    reader: PartReader,
    first: Buffer,
    second: Buffer,
  ): Promise<void> {
    const uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, headers);
    try {
      const parts: { part: number; etag: string }[] = [];
      let current: Buffer | undefined = first;
      let ahead: Buffer | undefined = second;
      while (current !== undefined) {
        const part = parts.length + 1;
        if (part > MAX_PARTS)
          throw new Error(`object ${key} is larger than ${MAX_PARTS} parts of ${PART_SIZE} bytes`);
        const uploading = this.client.uploadPart(
          { bucketName: this.bucket, objectName: key, uploadID: uploadId, partNumber: part, headers: {} },
          current,
        );
        // Read the next part into the other buffer while this one uploads; settle both before going on,
        // so no request still reads a buffer when the reader reuses or releases it.
        const reading: Promise<Buffer | undefined> =
          ahead !== undefined ? Promise.resolve(ahead) : reader.read();
        const [uploaded, next] = await settleBoth(uploading, reading);
        parts.push({ part, etag: uploaded.etag });
        current = next;
        ahead = undefined;
      }
      await this.client.completeMultipartUpload(this.bucket, key, uploadId, parts);
    } catch (error) {
      // Not every server can abort (s3rver cannot); the orphaned parts then expire with the bucket policy.
      await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Server-side concatenation when the server supports UploadPartCopy and the sources are big enough
   * (each but the last at least 5 MiB). The result is read back once for its SHA-256, and checked, since
   * the client's composeObject can report success after a failed part copy.
   */
  private async tryCompose(sourceKeys: string[], targetKey: string): Promise<StoredObject | undefined> {
    if (this.composeUnsupported || sourceKeys.length < 2 || sourceKeys.length > MAX_PARTS) return undefined;
    const stats = await Promise.all(sourceKeys.map(async (key) => (await this.stat(key)) ?? key));
    const missing = stats.find((stat): stat is string => typeof stat === 'string');
    if (missing !== undefined) throw new ObjectNotFound(missing);
    const sizes = stats.map((stat) => (typeof stat === 'string' ? 0 : stat.size));
    if (sizes.slice(0, -1).some((size) => size < MIN_COMPOSE_PART)) return undefined;
    try {
      await this.client.composeObject(
        new CopyDestinationOptions({ Bucket: this.bucket, Object: targetKey }),
        sourceKeys.map((key) => new CopySourceOptions({ Bucket: this.bucket, Object: key })),
      );
      const written = await measure(await this.get(targetKey));
      const expected = sizes.reduce((sum, size) => sum + size, 0);
      if (written.size !== expected)
        throw new ComposeMismatch(`composed ${written.size} bytes instead of ${expected}`);
      return { key: targetKey, ...written };
    } catch (error) {
      // The server refused (or mangled) the copy: stop trying. Other failures may be transient.
      const refused = error instanceof S3Error || error instanceof ComposeMismatch;
      if (refused) this.composeUnsupported = true;
      this.logger.warn(
        `server-side compose failed, concatenating by streaming${refused ? ' from now on' : ''}: ${describe(error)}`,
      );
      return undefined;
    }
  }

  private async removeBatch(keys: string[]): Promise<void> {
    const results = await this.client.removeObjects(this.bucket, keys);
    const failed = results.find(
      (result) => result?.Error !== undefined && !MISSING_CODES.has(result.Error.Code ?? ''),
    );
    if (failed?.Error !== undefined) {
      throw new Error(
        `could not delete ${failed.Error.Key ?? 'an object'}: ${failed.Error.Code ?? 'unknown error'}`,
      );
    }
  }
}

class ComposeMismatch extends Error {}

/**
 * The requested bytes of a ranged GET's body. Servers may send more than asked (s3rver answers
 * `bytes=0-0` with the whole object), so the served range (Content-Range, or all for a 200) is checked.
 */
function trimToRange(body: Readable, range: ByteRange): Readable {
  if (!(body instanceof IncomingMessage)) return body;
  const served = /^bytes (\d+)-(\d+)\//.exec(body.headers['content-range'] ?? '');
  const start = body.statusCode === 206 && served !== null ? Number(served[1]) : 0;
  const end = body.statusCode === 206 && served !== null ? Number(served[2]) : Number.MAX_SAFE_INTEGER;
  if (start === range.start && end === range.end) return body;
  if (start > range.start) {
    body.destroy();
    throw new Error(`the store served bytes from ${start} for a range starting at ${range.start}`);
  }
  return byteSlice(body, range.start - start, range.end - start);
}

function createClient(settings: MinioSettings, timeoutMs: number): Client {
  return new Client({
    endPoint: settings.endPoint,
    port: settings.port,
    useSSL: settings.useSSL,
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region,
    pathStyle: true,
    transport: timedTransport(settings.useSSL ? https : http, timeoutMs),
  });
}

/**
 * `http(s).request` with an inactivity timeout: a request whose socket sends and receives nothing for
 * `timeoutMs` (connecting, waiting for the answer, or streaming a body) is destroyed with a DependencyTimeout
 * (a 503), so a hung store never holds a request. The minio client takes this as its
 * `transport`.
 */
function timedTransport(
  transport: typeof http | typeof https,
  timeoutMs: number,
): Pick<typeof http, 'request'> {
  const request = (options: http.RequestOptions, callback?: (response: IncomingMessage) => void) => {
    const sent = transport.request({ ...options, timeout: timeoutMs }, callback);
    sent.on('timeout', () => sent.destroy(new DependencyTimeout('the object store', timeoutMs)));
    return sent;
  };
  return { request } as Pick<typeof http, 'request'>;
}

/** Awaits both; throws the first failure only once neither is still running. */
async function settleBoth<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected') throw first.reason;
  if (second.status === 'rejected') throw second.reason;
  return [first.value, second.value];
}

function isMissing(error: unknown): boolean {
  return error instanceof S3Error && MISSING_CODES.has(error.code ?? '');
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
