import { Logger } from '@nestjs/common';
import { DomainError, InvalidInput } from '@dam/errors';
import { oneLine, statusOf, StreamGarbage } from '@dam/http';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CHECKSUM_ALGORITHMS, UploadChecksum } from './tus-headers';

// Between Express and @tus/server's web Request/Response: headers, bodies, error answers, the reply.

export /** A tus error answer (@tus/server's shape). */
interface TusError {
  status_code: number;
  body: string;
}

/** tus's error answers, with domain errors mapped as everywhere else; never a 5xx for a client's mistake. */
export function tusErrorAnswer(error: unknown, logger: Logger): TusError {
  if (error instanceof DomainError) return { status_code: statusOf(error.kind), body: error.message };
  if (isTusError(error)) {
    // Unsupported extensions (deferred length, concatenation) are the client's mistake.
    const status = error.status_code === 501 ? 400 : error.status_code;
    return { status_code: status, body: error.body.trim() };
  }
  logger.error(
    `tus request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return { status_code: 500, body: 'the upload could not be stored' };
}

/**
 * The body tus reads: none, the request itself, or (with Upload-Checksum) the spooled file once its
 * digest matched; 'mismatch' when it did not.
 */
export async function requestBody(
  request: ExpressRequest,
  method: string,
  checksum: UploadChecksum | undefined,
): Promise<{ stream: ReadableStream; cleanup(): Promise<void> } | 'mismatch' | undefined> {
  const hasBody = method === 'PATCH' || (method === 'POST' && header(request, 'content-type') !== undefined);
  if (!hasBody) {
    request.resume();
    return undefined;
  }
  if (checksum === undefined) {
    return { stream: webStreamOf(request), cleanup: async () => undefined };
  }
  const file = path.join(tmpdir(), `dam-tus-${randomUUID()}`);
  const cleanup = () => rm(file, { force: true });
  const hash = checksum.hash();
  try {
    await pipeline(
      request,
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          hash.update(chunk);
          StreamGarbage.streamed(chunk.length);
          callback(null, chunk);
        },
      }),
      createWriteStream(file),
    );
  } catch {
    await cleanup();
    throw new InvalidInput('the body ended before its Content-Length');
  }
  if (!hash.digest().equals(checksum.expected)) {
    await cleanup();
    return 'mismatch';
  }
  const spooled = createReadStream(file);
  return {
    stream: webStreamOf(spooled),
    cleanup: async () => {
      spooled.destroy();
      await cleanup();
    },
  };
}

export function header(request: ExpressRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function webHeaders(request: ExpressRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'connection' || name === 'keep-alive') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

export function metadataMap(metadata: Record<string, string | null> | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of Object.entries(metadata ?? {})) if (value !== null) map.set(key, value);
  return map;
}

export function isTusError(error: unknown): error is TusError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as TusError).status_code === 'number' &&
    typeof (error as TusError).body === 'string'
  );
}

/**
 * `source` as the web stream tus reads, pulled one chunk at a time (memory stays flat). When tus stops
 * reading (it answered before the end: an offset conflict, a size exceeded), the rest is left unread and
 * the connection is closed after the answer (see `send`).
 */
export function webStreamOf(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done === true) controller.close();
        else {
          StreamGarbage.streamed(value.length);
          controller.enqueue(value);
        }
      } catch (error) {
        controller.error(error);
      }
    },
  });
}

/** tus's answer as the Express response; error bodies become one plain-text line, as everywhere else. */
export async function send(
  answer: Response,
  method: string,
  request: ExpressRequest,
  response: ExpressResponse,
): Promise<void> {
  response.status(answer.status);
  // Body bytes tus did not read would be taken for the next request on this connection.
  if (!request.complete) response.setHeader('Connection', 'close');
  answer.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'content-type') response.setHeader(name, value);
  });
  if (method === 'OPTIONS') {
    response.setHeader('Tus-Checksum-Algorithm', Object.keys(CHECKSUM_ALGORITHMS).join(','));
  }
  if (method === 'HEAD' || answer.status === 204) {
    await answer.body?.cancel();
    response.end();
    return;
  }
  let text = await answer.text();
  if (answer.status >= 400) text = oneLine(text.trim());
  response.type('text/plain').setHeader('Content-Length', String(Buffer.byteLength(text)));
  response.end(text);
}
