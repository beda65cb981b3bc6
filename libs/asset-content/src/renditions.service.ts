import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ObjectStorage } from '@dam/platform';
import { randomUUID } from 'node:crypto';
import sharp, { OutputInfo } from 'sharp';
import { AssetFilesRepository } from './asset-files.repository';
import { ContentObjects } from './content-objects';
import { isConvertibleImage } from './content-types';
import { AssetRenditionEntity, RenditionKind } from './entities/asset-rendition.entity';

/** Longest side of each rendition, in pixels. */
export const RENDITION_SIZES: Record<RenditionKind, number> = {
  thumbnail: 150,
  preview: 400,
  display: 800,
  large: 1024,
};

/**
 * Thumbnail, preview, display and large JPEGs of an asset's current image, generated with sharp in the
 * background after an upload: the source is read once and fanned out to the four sizes. Failures are
 * logged, never thrown; a file replaced meanwhile discards what was generated from it.
 */
@Injectable()
export class RenditionsService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Renditions');
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly files: AssetFilesRepository,
    private readonly storage: ObjectStorage,
    private readonly objects: ContentObjects,
  ) {}

  /** Starts generation without waiting for it. */
  generateLater(assetId: number, fileId: number, contentType: string): void {
    if (!isConvertibleImage(contentType)) return;
    const work = this.generate(assetId, fileId)
      .catch((error: unknown) => {
        this.logger.warn(
          `renditions of asset ${assetId} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => this.running.delete(work));
    this.running.add(work);
  }

  /** Generations under way finish before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private async generate(assetId: number, fileId: number): Promise<void> {
    const file = await this.files.current(assetId);
    if (file?.id !== fileId) return;
    const source = sharp({ failOn: 'none' }).rotate();
    const kinds = Object.keys(RENDITION_SIZES) as RenditionKind[];
    const outputs = kinds.map((kind) => {
      const size = RENDITION_SIZES[kind];
      const pipeline = source
        .clone()
        .resize(size, size, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82 });
      const key = `renditions/${assetId}/${kind}-${randomUUID()}`;
      const info = new Promise<OutputInfo>((resolve, reject) => {
        pipeline.once('info', resolve);
        pipeline.once('error', reject);
      });
      const stored = this.storage.put(key, pipeline, { contentType: 'image/jpeg' });
      // Handled where awaited below; marked handled now so an early failure is no unhandled rejection.
      stored.catch(() => undefined);
      info.catch(() => undefined);
      return { kind, key, pipeline, stored, info };
    });
    const keys = outputs.map((output) => output.key);
    try {
      (await this.storage.get(file.storageKey)).pipe(source);
      const rows: AssetRenditionEntity[] = [];
      for (const output of outputs) {
        const [, info] = await Promise.all([output.stored, output.info]);
        rows.push(
          Object.assign(new AssetRenditionEntity(), {
            assetId,
            kind: output.kind,
            storageKey: output.key,
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
      for (const output of outputs) output.pipeline.destroy();
      await Promise.allSettled(outputs.map((output) => output.stored));
      await this.objects.discard(keys);
      throw error;
    }
  }
}
