import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes written. */
  sha256: string;
}

export interface ObjectStat {
  size: number;
  /** Opaque and unquoted; changes whenever the object is replaced. */
  etag: string;
  lastModified: Date;
}

/** Inclusive byte range, as in HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface SignedUrlOptions {
  /** Seconds until the URL stops working (the minio adapter caps it at 7 days, S3's limit). */
  expirySeconds: number;
  /** File name offered to the client in Content-Disposition (never used in keys). */
  filename?: string;
  contentType?: string;
}

/**
 * Where file bytes live. Keys are chosen by the service (`assets/{assetId}/{fileId}`, `temp/{uuid}/{index}`,
 * ...) and never contain client-supplied names: slash-separated segments of [A-Za-z0-9_.-], none starting
 * with a dot (see object-key.ts); every method rejects other keys with InvalidObjectKey. Every method
 * streams; none buffers a whole object. The contract is pinned by test/storage-contract.e2e-spec.ts,
 * which runs against every adapter.
 */
export abstract class ObjectStorage {
  /** Creates the bucket/folder when missing. Called once at boot. */
  abstract init(): Promise<void>;
  /** Throws when the store cannot be reached (health check). */
  abstract ping(): Promise<void>;
  /**
   * Writes the stream under `key`, replacing any object there; the object appears complete or not at all.
   * When the stream fails, the error is rethrown and nothing (new) is left under `key`.
   */
  abstract put(key: string, body: Readable, options?: { contentType?: string }): Promise<StoredObject>;
  /**
   * Reads the object, or the inclusive byte range of it (start within the object; an end past it is
   * clamped). Throws ObjectNotFound when absent.
   */
  abstract get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size, etag and date of the object, or undefined when absent. */
  abstract stat(key: string): Promise<ObjectStat | undefined>;
  /** Removes the object; absent objects are not an error. */
  abstract delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`. */
  abstract deletePrefix(prefix: string): Promise<void>;
  /** Keys starting with `prefix`. */
  abstract list(prefix: string): AsyncIterable<string>;
  /**
   * Writes the concatenation of `sourceKeys`, in order, under `targetKey`; sources remain. Throws
   * ObjectNotFound, writing nothing, when a source is missing.
   */
  abstract concatenate(sourceKeys: string[], targetKey: string): Promise<StoredObject>;
  /**
   * A URL that serves the object without further authentication until it expires, as an attachment named
   * `filename`: fs, the service's own `GET /files/{key}` signed by UrlSigner; minio, a presigned S3 URL.
   */
  abstract signedGetUrl(key: string, options: SignedUrlOptions): Promise<string>;

  /**
   * The object's file on this machine when the store keeps objects as local files (fs), so readers that
   * need random access (sharp, libvips) can read it in place; undefined otherwise (S3).
   */
  localPath(_key: string): string | undefined {
    return undefined;
  }
}

export class ObjectNotFound extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
  }
}
