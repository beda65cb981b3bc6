import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { BadChunkNumber, TempFileNotFound } from '../temp-chunked-file-errors';
import { isTempFileId, MAX_CHUNK_INDEX } from '../temp-file-id';

/** A temp file id in a path: anything but a lowercase UUID v4 names no temp file (404). */
@Injectable()
export class TempFileIdPipe implements PipeTransform<string, string> {
  transform(raw: string): string {
    if (!isTempFileId(raw)) throw new TempFileNotFound(raw);
    return raw;
  }
}

export function parseChunkIndex(raw: unknown): number {
  const index = typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(index) || index > MAX_CHUNK_INDEX) {
    throw new BadChunkNumber(MAX_CHUNK_INDEX);
  }
  return index;
}

/**
 * The `:index` path segment as a chunk number: 0 to 99999 in plain digits, else 400. A decorator rather
 * than a pipe, because the global ValidationPipe would first turn `0x1` or `1e3` into numbers.
 */
export const ChunkIndex = createParamDecorator((_data: unknown, context: ExecutionContext): number =>
  parseChunkIndex(context.switchToHttp().getRequest<Request>().params.index),
);
