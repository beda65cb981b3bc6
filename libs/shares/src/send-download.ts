import type { Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StreamGarbage } from '@dam/http';
import { contentDisposition } from '@dam/storage';

/** What a download answer says of its bytes. */
export interface DownloadHead {
  filename: string;
  contentType: string;
  length: number;
}

/**
 * Writes `stream` as a 200 answer with its length, type and file name (an attachment unless a safe
 * image type), never cached by shared caches. A client that goes away mid-download is normal. A HEAD
 * request gets the headers alone (the stream, never read, is let go).
 */
export async function sendDownload(
  response: Response,
  head: DownloadHead,
  stream: Readable | undefined,
): Promise<void> {
  response.status(200);
  response.setHeader('Content-Type', head.contentType);
  response.setHeader('Content-Length', String(head.length));
  response.setHeader('Content-Disposition', contentDisposition(head.filename, head.contentType));
  response.setHeader('Cache-Control', 'private, no-store');
  if (response.req.method === 'HEAD' || stream === undefined) {
    // HEAD (a link preview, a download manager's probe): the headers, no bytes, no download counted.
    stream?.destroy();
    response.end();
    return;
  }
  try {
    await pipeline(StreamGarbage.watch(stream), response);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  }
}
