import { AppConfig } from '@dam/core';
import { StreamGarbage } from '@dam/http';
import { ObjectStorage } from '@dam/storage';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Sharp, SharpOptions } from 'sharp';

type SharpFactory = (input?: string | Buffer, options?: SharpOptions) => Sharp;

let loading: Promise<SharpFactory> | undefined;

/**
 * sharp, loaded on first use (it weighs about 20 MB of RSS and most requests never touch an image), with
 * libvips' operation cache off and one libvips thread per image, so that memory stays flat in image size
 * and image work does not crowd out request handling.
 */
export function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then((module) => {
    const sharp = module.default;
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

/** A stored image as a local file sharp can read lazily; `release` removes it when it was a copy. */
export interface ImageInput {
  path: string;
  release(): Promise<void>;
}

/**
 * Where image work reads from, and its limits. sharp buffers a whole input given as a stream, so images
 * are read from a file: the store's own file when it offers a local path, otherwise a copy streamed from
 * the store into a temporary file (bounded by `maxInputBytes`, memory flat). Images over `maxInputBytes`
 * or `maxInputPixels` are never decoded. A plain helper each image service makes for itself.
 */
export class ImageInputs {
  readonly maxInputBytes: number;
  readonly maxInputPixels: number;

  constructor(
    private readonly storage: ObjectStorage,
    config: AppConfig,
  ) {
    this.maxInputBytes = config.renditionMaxInputBytes;
    this.maxInputPixels = config.renditionMaxInputPixels;
  }

  /** Options for every sharp instance reading a stored image. */
  sharpOptions(extra: SharpOptions = {}): SharpOptions {
    return { failOn: 'none', limitInputPixels: this.maxInputPixels, sequentialRead: true, ...extra };
  }

  /** Options for reading only the header of a stored image: its size is checked by `refusal`. */
  metadataOptions(): SharpOptions {
    return { failOn: 'none', limitInputPixels: false };
  }

  /** Undefined when the image may be decoded, otherwise why not. */
  refusal(width: number | undefined, height: number | undefined, pages = 1): string | undefined {
    if (width === undefined || height === undefined) return 'its dimensions cannot be read';
    const pixels = width * height * Math.max(1, pages);
    if (pixels > this.maxInputPixels)
      return `it has ${pixels} pixels, more than the limit of ${this.maxInputPixels}`;
    return undefined;
  }

  async open(key: string): Promise<ImageInput> {
    const local = this.storage.localPath(key);
    if (local !== undefined) return { path: local, release: () => Promise.resolve() };
    const folder = await mkdtemp(path.join(tmpdir(), 'dam-image-'));
    const release = () => rm(folder, { recursive: true, force: true });
    try {
      const file = path.join(folder, 'source');
      const source = await this.storage.get(key, { start: 0, end: this.maxInputBytes - 1 });
      await pipeline(StreamGarbage.watch(source), createWriteStream(file));
      return { path: file, release };
    } catch (error) {
      await release();
      throw error;
    }
  }
}
