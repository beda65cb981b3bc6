import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { ObjectStorage } from '@dam/storage';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { AssetFilesRepository } from './asset-files.repository';
import { ContentObjects } from './content-objects';
import { isConvertibleImage } from './content-types';
import { AssetRenditionEntity, RenditionKind } from './entities/asset-rendition.entity';
import { ImageInputs, loadSharp } from './image-inputs';
import { RenditionQueue } from './rendition-queue';

/** Longest side of each rendition, in pixels. */
export const RENDITION_SIZES: Record<RenditionKind, number> = {
  thumbnail: 150,
  preview: 400,
  display: 800,
  large: 1024,
};

const LARGEST = Math.max(...Object.values(RENDITION_SIZES));

/**
 * Thumbnail, preview, display and large JPEGs of an asset's current image, generated with sharp in a
 * bounded background queue (DAM_RENDITION_CONCURRENCY, 1 by default) after the upload answered. The
 * source is read from a file, never buffered whole: it is decoded once, shrunk to the largest size, and
 * the four JPEGs are made from that. Images over DAM_RENDITION_MAX_INPUT_BYTES or
 * DAM_RENDITION_MAX_INPUT_PIXELS get none. Failures are logged, never thrown; a file replaced meanwhile
 * discards what was generated from it.
 */
@Injectable()
export class RenditionsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Renditions');
  private readonly queue: RenditionQueue;
  private readonly inputs: ImageInputs;

  constructor(
    private readonly files: AssetFilesRepository,
    private readonly storage: ObjectStorage,
    private readonly objects: ContentObjects,
    config: AppConfig,
  ) {
    this.inputs = new ImageInputs(storage, config);
    this.queue = new RenditionQueue(config.renditionConcurrency);
  }

  /** Queues generation without waiting for it. */
  generateLater(assetId: number, fileId: number, contentType: string): void {
    if (!isConvertibleImage(contentType)) return;
    this.queue.add(`renditions of asset ${assetId}`, () => this.generate(assetId, fileId));
  }

  /** Resolves once every queued generation has finished (tests and shutdown wait on it). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Generations queued or under way finish before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.idle();
  }

  private async generate(assetId: number, fileId: number): Promise<void> {
    const file = await this.files.current(assetId);
    if (file?.id !== fileId) return;
    if (file.size > this.inputs.maxInputBytes) {
      this.logger.log(
        `asset ${assetId} gets no renditions: ${file.size} bytes, more than ${this.inputs.maxInputBytes}`,
      );
      return;
    }
    const sharp = await loadSharp();
    const input = await this.inputs.open(file.storageKey);
    let base: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
    let source: { width: number; height: number };
    try {
      const metadata = await sharp(input.path, this.inputs.metadataOptions()).metadata();
      const refusal = this.inputs.refusal(metadata.width, metadata.height);
      if (refusal !== undefined) {
        this.logger.log(`asset ${assetId} gets no renditions: ${refusal}`);
        return;
      }
      // EXIF orientations 5 to 8 turn the image a quarter: its upright size has the sides swapped.
      const turned = (metadata.orientation ?? 1) >= 5;
      const [width, height] = [metadata.width ?? 1, metadata.height ?? 1];
      source = turned ? { width: height, height: width } : { width, height };
      base = await sharp(input.path, this.inputs.sharpOptions())
        .rotate()
        .resize(LARGEST, LARGEST, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
    } finally {
      await input.release();
    }

    const keys: string[] = [];
    try {
      const rows: AssetRenditionEntity[] = [];
      for (const kind of Object.keys(RENDITION_SIZES) as RenditionKind[]) {
        const size = RENDITION_SIZES[kind];
        const { width, height, channels } = base.info;
        // Sized from the source's own dimensions, as if resized from it directly (same rounding).
        const target = fitInside(source, size);
        const { data, info } = await sharp(base.data, { raw: { width, height, channels } })
          .resize(target.width, target.height, { fit: 'fill' })
          .jpeg({ quality: 82 })
          .toBuffer({ resolveWithObject: true });
        const key = `renditions/${assetId}/${kind}-${randomUUID()}`;
        keys.push(key);
        await this.storage.put(key, Readable.from([data]), { contentType: 'image/jpeg' });
        rows.push(
          Object.assign(new AssetRenditionEntity(), {
            assetId,
            kind,
            storageKey: key,
            contentType: 'image/jpeg',
            width: info.width,
            height: info.height,
            sourceFileId: fileId,
            createdAt: new Date(),
          }),
        );
      }
      await this.objects.discard(await this.files.saveRenditions(assetId, fileId, rows));
    } catch (error) {
      await this.objects.discard(keys);
      throw error;
    }
  }
}

/** The size of `source` fitted inside a `size`×`size` box, never enlarged. */
export function fitInside(
  source: { width: number; height: number },
  size: number,
): { width: number; height: number } {
  const scale = Math.min(1, size / source.width, size / source.height);
  return {
    width: Math.max(1, Math.round(source.width * scale)),
    height: Math.max(1, Math.round(source.height * scale)),
  };
}
