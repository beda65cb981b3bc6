import { Injectable } from '@nestjs/common';
import { ActorUser } from '@dam/access';
import { AssetReader } from '@dam/assets';
import { AppConfig } from '@dam/core';
import { InvalidInput, TooLarge, UnknownResource } from '@dam/errors';
import { parseWholeNumber } from '@dam/http';
import { ObjectStorage } from '@dam/storage';
import type { Readable } from 'node:stream';
import { AssetDownloadsService } from './asset-downloads.service';
import { AssetFilesRepository } from './asset-files.repository';
import { isConvertibleImage } from './content-types';
import { RenditionKind } from './entities/asset-rendition.entity';
import { ImageInputs, loadSharp } from './image-inputs';

/** Conversions are limited to this many pixels per side. */
export const MAX_CONVERSION_SIDE = 4096;
/** A side of a conversion: `width`, `height`. */
const SIDE = { min: 1, max: MAX_CONVERSION_SIDE };

const FORMATS = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
} as const;
type Format = keyof typeof FORMATS;

export interface Conversion {
  stream: Readable;
  contentType: string;
}

/**
 * Images of an asset: the generated renditions (303 to signed URLs; thumbnail, preview and display for
 * whoever sees the asset, the unwatermarked large image with download permission) and conversions made
 * on the fly and streamed (download permission).
 */
@Injectable()
export class AssetImagesService {
  private readonly inputs: ImageInputs;

  constructor(
    private readonly files: AssetFilesRepository,
    private readonly reader: AssetReader,
    private readonly downloads: AssetDownloadsService,
    private readonly storage: ObjectStorage,
    private readonly config: AppConfig,
  ) {
    this.inputs = new ImageInputs(storage, config);
  }

  async renditionUrl(actor: ActorUser, id: number, kind: RenditionKind): Promise<string> {
    if (kind === 'large') await this.downloads.downloadableOrThrow(actor, id);
    else await this.reader.visibleOrThrow(actor, id);
    const rendition = await this.files.rendition(id, kind);
    const what = kind === 'video' ? 'preview video' : `${kind} image`;
    if (rendition === null) throw new UnknownResource(`asset ${id} has no ${what} (yet)`);
    return this.storage.signedGetUrl(rendition.storageKey, {
      expirySeconds: this.config.signedUrlTtlSeconds,
      contentType: rendition.contentType,
      filename: `${kind}-${id}.${kind === 'video' ? 'mp4' : 'jpg'}`,
    });
  }

  async convert(actor: ActorUser, id: number, query: Record<string, unknown>): Promise<Conversion> {
    const options = conversionOptionsOrThrow(query);
    await this.downloads.downloadableOrThrow(actor, id);
    const file = await this.downloads.currentOrThrow(id);
    if (!isConvertibleImage(file.contentType))
      throw new InvalidInput(`asset ${id} is not an image that can be converted`);
    if (file.size > this.inputs.maxInputBytes) {
      throw new TooLarge(
        `asset ${id} is too large to convert (more than ${this.inputs.maxInputBytes} bytes)`,
      );
    }
    const sharp = await loadSharp();
    const input = await this.inputs.open(file.storageKey);
    try {
      const animated = options.format === 'gif';
      const metadata = await sharp(input.path, this.inputs.metadataOptions())
        .metadata()
        .catch(() => {
          throw new InvalidInput(`asset ${id} is not an image that can be converted`);
        });
      const refusal = this.inputs.refusal(metadata.width, metadata.height, animated ? metadata.pages : 1);
      if (refusal !== undefined) throw new TooLarge(`asset ${id} cannot be converted: ${refusal}`);
      const pipeline = sharp(input.path, this.inputs.sharpOptions({ animated }))
        .rotate()
        .resize(options.width, options.height, {
          fit: options.cropToFit ? 'cover' : 'inside',
          withoutEnlargement: !options.cropToFit,
        })
        .toFormat(options.format === 'jpg' ? 'jpeg' : options.format);
      pipeline.once('close', () => void input.release());
      return { stream: pipeline, contentType: FORMATS[options.format] };
    } catch (error) {
      await input.release();
      throw error;
    }
  }
}

interface ConversionOptions {
  width?: number;
  height?: number;
  format: Format;
  cropToFit: boolean;
}

/** width/height 1..4096 (at least one; both for cropToFit), format jpg|png|webp|gif (default jpg). */
export function conversionOptionsOrThrow(query: Record<string, unknown>): ConversionOptions {
  const width = parseWholeNumber(query.width, 'width', SIDE);
  const height = parseWholeNumber(query.height, 'height', SIDE);
  if (width === undefined && height === undefined) throw new InvalidInput('give a width, a height or both');
  const rawFormat = query.format ?? 'jpg';
  if (typeof rawFormat !== 'string' || !(rawFormat.toLowerCase() in FORMATS)) {
    throw new InvalidInput('format must be one of jpg, png, webp, gif');
  }
  const rawCrop = query.cropToFit ?? 'false';
  if (typeof rawCrop !== 'string' || !/^(true|false)$/i.test(rawCrop))
    throw new InvalidInput('cropToFit must be true or false');
  const cropToFit = rawCrop.toLowerCase() === 'true';
  if (cropToFit && (width === undefined || height === undefined)) {
    throw new InvalidInput('cropToFit needs both a width and a height');
  }
  return { width, height, format: rawFormat.toLowerCase() as Format, cropToFit };
}
