import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import { requireWholeNumber } from '@dam/http';
import type { Request } from 'express';
import { TempFileNotFound } from '../temp-chunked-file-errors';
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
  return requireWholeNumber(raw, 'the chunk number', { min: 0, max: MAX_CHUNK_INDEX });
}

/**
 * The `:index` path segment as a chunk number: 0 to 99999 in plain digits, else 400. A decorator rather
 * than a pipe, because the global ValidationPipe would first turn `0x1` or `1e3` into numbers.
 */
export const ChunkIndex = createParamDecorator((_data: unknown, context: ExecutionContext): number =>
  parseChunkIndex(context.switchToHttp().getRequest<Request>().params.index),
);
