import { Injectable, Logger } from '@nestjs/common';
import { ObjectStorage } from '@dam/storage';
import type { Readable } from 'node:stream';

/** Small helpers over object storage shared by uploads, embedded data and renditions. */
@Injectable()
export class ContentObjects {
  private readonly logger = new Logger('AssetContent');

  constructor(private readonly storage: ObjectStorage) {}

  /** The first `limit` bytes of an object of `size` bytes (bounded, so it may be buffered). */
  async prefix(key: string, size: number, limit: number): Promise<Buffer> {
    if (size === 0) return Buffer.alloc(0);
    const stream: Readable = await this.storage.get(key, { start: 0, end: Math.min(size, limit) - 1 });
    const parts: Buffer[] = [];
    for await (const part of stream) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as string));
    return Buffer.concat(parts).subarray(0, limit);
  }

  /** Deletes objects no row points at; a failure leaves an orphan for the sweeper, not an error. */
  async discard(keys: string[]): Promise<void> {
    for (const key of keys) {
      await this.storage.delete(key).catch((error: unknown) => {
        this.logger.warn(
          `could not delete ${key}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
  }
}
