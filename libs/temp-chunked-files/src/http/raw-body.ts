import { Logger } from '@nestjs/common';
import { UnsupportedContent } from '@dam/errors';
import { StreamGarbage } from '@dam/http';
import type { Request, Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const logger = new Logger('StreamedResponse');

/**
 * The request itself as the stream of raw body bytes. Bodies of the types the global parser reads
 * (JSON, forms, XML) are gone by now, so those are refused: raw bytes are sent as application/octet-stream
 * (any other type passes through untouched).
 */
export function rawBodyOrThrow(request: Request): Readable {
  // The body parsers read the whole stream of the types they parse; nothing else reads it before us.
  if (request.readableEnded) {
    throw new UnsupportedContent(
      `a chunk is raw bytes: send it as application/octet-stream, not ${request.headers['content-type'] ?? 'a parsed type'}`,
    );
  }
  return request;
}

/**
 * Streams `body` as the response. Once bytes have gone out, a failure can only cut the connection:
 * the client sees fewer bytes than Content-Length announced.
 */
export async function sendStream(request: Request, response: Response, body: Readable): Promise<void> {
  if (request.method === 'HEAD') {
    body.destroy();
    response.end();
    return;
  }
  try {
    await pipeline(StreamGarbage.watch(body), response);
  } catch (error) {
    // A client that stops reading is routine; a store that fails mid-stream is worth a warning.
    const clientLeft = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';
    const message = `response to ${request.method} ${request.path} cut short: ${error instanceof Error ? error.message : String(error)}`;
    if (clientLeft) logger.debug(message);
    else logger.warn(message);
    response.destroy();
  }
}
