import { Injectable, Logger } from '@nestjs/common';
import { ActorUser, requireAdmin } from '@dam/access';
import { AppConfig } from '@dam/core';
import { TooLarge } from '@dam/errors';
import { sizeLimited, uploadFilenameOrThrow } from '@dam/http';
import { ObjectStorage, safeFilename } from '@dam/storage';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AccessLevelReader } from '../access-level.reader';
import { AccessLevelsRepository } from '../access-levels.repository';
import { AccessLevelNotFound } from '../access-level-errors';

/** Images above this size are refused (413), while streaming. */
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  avif: 'image/avif',
};

/** An image upload as it arrived: the body stream and the headers that describe it. */
export interface ImageUpload {
  body: Readable;
  contentType?: string;
  contentDisposition?: string;
  contentLength?: string;
}

/**
 * The image of an access level (spec 4.1 items 6-8). Bytes stream into object storage under
 * `access-level-images/{id}/{uuid}`; then the level switches to the new key in one write; then the
 * replaced object is deleted. A crash in between leaves the old image served, at worst with an orphan.
 */
@Injectable()
export class AccessLevelImagesService {
  private readonly logger = new Logger('AccessLevelImages');

  constructor(
    private readonly levels: AccessLevelsRepository,
    private readonly reader: AccessLevelReader,
    private readonly storage: ObjectStorage,
    private readonly config: AppConfig,
  ) {}

  /** A signed URL serving the image for DAM_SIGNED_URL_TTL_SECONDS, or undefined when the level has none. */
  async signedUrl(actor: ActorUser, id: number): Promise<string | undefined> {
    const visible = await this.reader.visibleIds(actor);
    const level = visible.includes(id) ? await this.levels.findById(id) : null;
    if (level === null) throw new AccessLevelNotFound(id);
    if (level.imageKey === null) return undefined;
    return this.storage.signedGetUrl(level.imageKey, {
      expirySeconds: this.config.signedUrlTtlSeconds,
      filename: level.imageFilename ?? undefined,
      contentType: level.imageContentType ?? undefined,
    });
  }

  async replace(actor: ActorUser, id: number, upload: ImageUpload): Promise<void> {
    requireAdmin(actor, 'change access levels');
    if ((await this.levels.findById(id)) === null) throw new AccessLevelNotFound(id);
    const filename = safeFilename(uploadFilenameOrThrow(upload.contentType, upload.contentDisposition));
    if (Number(upload.contentLength) > MAX_IMAGE_BYTES) throw tooLarge();
    const key = `access-level-images/${id}/${randomUUID()}`;
    const limited = sizeLimited(upload.body, MAX_IMAGE_BYTES, tooLarge);
    const contentType =
      IMAGE_TYPES[filename.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
    try {
      await this.storage.put(key, limited.stream, { contentType });
    } catch (error) {
      await this.discard([key]);
      throw limited.exceeded() ? tooLarge() : error;
    }
    const switched = await this.levels.replaceImage(id, { key, filename, contentType });
    if (switched === undefined) {
      await this.discard([key]);
      throw new AccessLevelNotFound(id);
    }
    if (switched.previousKey !== null) await this.discard([switched.previousKey]);
  }

  async delete(actor: ActorUser, id: number): Promise<void> {
    requireAdmin(actor, 'change access levels');
    const switched = await this.levels.replaceImage(id, null);
    if (switched === undefined) throw new AccessLevelNotFound(id);
    if (switched.previousKey !== null) await this.discard([switched.previousKey]);
  }

  /** Deletes objects no row points at any more; a failure leaves an orphan for the sweeper, not an error. */
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

function tooLarge(): TooLarge {
  return new TooLarge(`an access level image may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
}
