import { Injectable, Logger, OnApplicationShutdown, Optional } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { ObjectStorage } from '@dam/storage';
import { Metrics } from '@dam/observability';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { AssetFilesRepository } from './asset-files.repository';
import { ContentObjects } from './content-objects';
import { previewSourceOf } from './content-types';
import {
  AssetRenditionEntity,
  ImageRenditionKind,
  RENDITION_KINDS,
  RenditionKind,
} from './entities/asset-rendition.entity';
import type { SharpOptions } from 'sharp';
import { ImageInputs, loadSharp } from './image-inputs';
import { DecoderFailed } from './previews/decoder-child';
import { VideoFacts } from './previews/ffmpeg';
import { MediaPreviews, RawImage } from './previews/media-previews';

/** Longest side of each rendition, in pixels. */
export const RENDITION_SIZES: Record<ImageRenditionKind, number> = {
  thumbnail: 150,
  preview: 400,
  display: 800,
  large: 1024,
};

const LARGEST = Math.max(...Object.values(RENDITION_SIZES));

/**
 * Makes the renditions of a file (a task of the rendition queue, `RenditionsService`): thumbnail, preview,
 * display and large JPEGs of an image, of a video's frame at 10% of its duration, or of a PDF's first page,
 * and a video's web proxy. An image is read from a file, never buffered whole: it is decoded once, shrunk
 * to the largest size, and the four JPEGs are made from that; videos and PDFs are decoded by child
 * processes (`MediaPreviews`). Files over DAM_RENDITION_MAX_INPUT_BYTES, images over
 * DAM_RENDITION_MAX_INPUT_PIXELS, and files a decoder cannot read or refuses get none (counted in
 * `dam_renditions_total`). A file replaced meanwhile discards what was made from it.
 */
@Injectable()
export class RenditionMaker implements OnApplicationShutdown {
  private readonly logger = new Logger('Renditions');
  private readonly inputs: ImageInputs;
  private readonly media: MediaPreviews;

  constructor(
    private readonly files: AssetFilesRepository,
    private readonly storage: ObjectStorage,
    private readonly objects: ContentObjects,
    config: AppConfig,
    @Optional() private readonly counts?: Metrics,
  ) {
    this.inputs = new ImageInputs(storage, config);
    this.media = new MediaPreviews(config);
  }

  onApplicationShutdown(): void {
    this.media.close();
  }

  /** Makes the renditions of `fileId` while it is the asset's current file; never throws for a bad file. */
  async make(assetId: number, fileId: number): Promise<void> {
    const file = await this.files.current(assetId);
    if (file?.id !== fileId) return;
    const source = previewSourceOf(file.contentType);
    if (source === undefined) return;
    if (file.size > this.inputs.maxInputBytes) {
      this.logger.log(
        `asset ${assetId} gets no renditions: ${file.size} bytes, more than ${this.inputs.maxInputBytes}`,
      );
      this.counts?.renditionEnded(source, 'failed');
      return;
    }
    const input = await this.inputs.open(file.storageKey);
    const work = await mkdtemp(path.join(tmpdir(), 'dam-preview-'));
    let stage: string = source;
    try {
      let image: string | RawImage = input.path;
      let video: VideoFacts | undefined;
      if (source === 'video') {
        ({ facts: video, frame: image } = await this.media.videoFrame(input.path, work, LARGEST));
      } else if (source === 'pdf') image = await this.media.pdfPage(input.path, work, LARGEST);
      const made = await this.imageRenditions(assetId, fileId, image);
      if (!made) return this.counts?.renditionEnded(source, 'failed');
      this.counts?.renditionEnded(source, 'made');
      if (video === undefined) return;
      stage = 'video-proxy';
      const proxy = await this.media.videoProxy(input.path, video, work);
      const key = `renditions/${assetId}/video-${randomUUID()}`;
      await this.store(assetId, fileId, key, createReadStream(proxy.file), {
        kind: 'video',
        contentType: 'video/mp4',
        width: proxy.width,
        height: proxy.height,
        durationMs: video.durationSeconds === undefined ? null : Math.round(video.durationSeconds * 1000),
        codec: video.codec.slice(0, 32),
      });
      this.counts?.renditionEnded(stage, 'made');
    } catch (error) {
      this.counts?.renditionEnded(
        stage,
        error instanceof DecoderFailed && error.timedOut ? 'timed_out' : 'failed',
      );
      if (!(error instanceof DecoderFailed)) throw error;
      this.logger.log(`asset ${assetId} gets no ${stage} renditions: ${error.message}`);
    } finally {
      await input.release();
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * The four JPEGs from an image file, decoded once and shrunk to the largest size; false when the image is
   * refused (too many pixels, unreadable size).
   */
  private async imageRenditions(assetId: number, fileId: number, image: string | RawImage): Promise<boolean> {
    const sharp = await loadSharp();
    const [input, options, metadataOptions] =
      typeof image === 'string'
        ? [image, this.inputs.sharpOptions(), this.inputs.metadataOptions()]
        : await rawInput(image);
    const metadata = await sharp(input, metadataOptions).metadata();
    const refusal = this.inputs.refusal(metadata.width, metadata.height);
    if (refusal !== undefined) {
      this.logger.log(`asset ${assetId} gets no renditions: ${refusal}`);
      return false;
    }
    // EXIF orientations 5 to 8 turn the image a quarter: its upright size has the sides swapped.
    const turned = (metadata.orientation ?? 1) >= 5;
    const [width, height] = [metadata.width ?? 1, metadata.height ?? 1];
    const source = turned ? { width: height, height: width } : { width, height };
    const base = await sharp(input, options)
      .rotate()
      .resize(LARGEST, LARGEST, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const keys: string[] = [];
    try {
      const rows: AssetRenditionEntity[] = [];
      for (const kind of RENDITION_KINDS) {
        const { width, height, channels } = base.info;
        // Sized from the source's own dimensions, as if resized from it directly (same rounding).
        const target = fitInside(source, RENDITION_SIZES[kind]);
        const { data, info } = await sharp(base.data, { raw: { width, height, channels } })
          .resize(target.width, target.height, { fit: 'fill' })
          .jpeg({ quality: 82 })
          .toBuffer({ resolveWithObject: true });
        const key = `renditions/${assetId}/${kind}-${randomUUID()}`;
        keys.push(key);
        await this.storage.put(key, Readable.from([data]), { contentType: 'image/jpeg' });
        rows.push(renditionRow(assetId, fileId, key, { kind, contentType: 'image/jpeg', ...info }));
      }
      await this.objects.discard(await this.files.saveRenditions(assetId, fileId, rows));
      return true;
    } catch (error) {
      await this.objects.discard(keys);
      throw error;
    }
  }

  /** Stores one rendition object and records it (or discards it when the file was replaced meanwhile). */
  private async store(
    assetId: number,
    fileId: number,
    key: string,
    body: Readable,
    facts: RenditionFacts,
  ): Promise<void> {
    try {
      await this.storage.put(key, body, { contentType: facts.contentType });
      const row = renditionRow(assetId, fileId, key, facts);
      await this.objects.discard(await this.files.saveRenditions(assetId, fileId, [row]));
    } catch (error) {
      await this.objects.discard([key]);
      throw error;
    }
  }
}

/** A raw image's pixels (a page, at most the largest rendition's size) and how sharp reads them. */
async function rawInput(image: RawImage): Promise<[Buffer, SharpOptions, SharpOptions]> {
  const options: SharpOptions = { raw: { width: image.width, height: image.height, channels: 4 } };
  return [await readFile(image.file), options, options];
}

interface RenditionFacts {
  kind: RenditionKind;
  contentType: string;
  width: number;
  height: number;
  /** A video's, on its proxy's row. */
  durationMs?: number | null;
  codec?: string | null;
}

function renditionRow(
  assetId: number,
  fileId: number,
  storageKey: string,
  facts: RenditionFacts,
): AssetRenditionEntity {
  return Object.assign(new AssetRenditionEntity(), {
    assetId,
    kind: facts.kind,
    storageKey,
    contentType: facts.contentType,
    width: facts.width,
    height: facts.height,
    sourceFileId: fileId,
    durationMs: facts.durationMs ?? null,
    codec: facts.codec ?? null,
    createdAt: new Date(),
  });
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
