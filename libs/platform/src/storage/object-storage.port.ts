import type { Readable } from 'node:stream';

export interface StoredObject {
  key: string;
  size: number;
  /** Hex SHA-256 of the bytes written. */
  sha256: string;
}

export interface ObjectStat {
  size: number;
  etag: string;
  lastModified: Date;
}

/** Inclusive byte range, as in HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface SignedUrlOptions {
  /** Seconds until the URL stops working. */
  expirySeconds: number;
  /** File name offered to the client in Content-Disposition (never used in keys). */
  filename?: string;
  contentType?: string;
}

/**
 * Where file bytes live. Keys are chosen by the service (`assets/{assetId}/{fileId}`, `temp/{uuid}/{index}`,
 * ...) and never contain client-supplied names. Every method streams; none buffers a whole object.
 */
export abstract class ObjectStorage {
  /** Creates the bucket/folder when missing. Called once at boot. */
  abstract init(): Promise<void>;
  /** Throws when the store cannot be reached (health check). */
  abstract ping(): Promise<void>;
  /** Writes the stream under `key`; the object appears complete or not at all. */
  abstract put(key: string, body: Readable, options?: { contentType?: string }): Promise<StoredObject>;
  /** Reads the object (or a byte range of it). Throws ObjectNotFound when absent. */
  abstract get(key: string, range?: ByteRange): Promise<Readable>;
  /** Size, etag and date of the object, or undefined when absent. */
  abstract stat(key: string): Promise<ObjectStat | undefined>;
  /** Removes the object; absent objects are not an error. */
  abstract delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`. */
  abstract deletePrefix(prefix: string): Promise<void>;
  /** Keys starting with `prefix`. */
  abstract list(prefix: string): AsyncIterable<string>;
  /** Writes the concatenation of `sourceKeys`, in order, under `targetKey`; sources remain. */
  abstract concatenate(sourceKeys: string[], targetKey: string): Promise<StoredObject>;
  /** A URL that serves the object without further authentication until it expires. */
  abstract signedGetUrl(key: string, options: SignedUrlOptions): Promise<string>;
}

export class ObjectNotFound extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
  }
}
