import { Readable, Transform } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { InvalidInput, TooLarge, UnsupportedContent } from '@dam/errors';
import { StreamGarbage } from './stream-garbage';

/**
 * The file name of a raw upload (`Content-Type: application/octet-stream` with `Content-Disposition:
 * attachment; filename=<name>`, spec 4.1 and 4.5). Another content type is a 415; a missing or
 * malformed disposition, or one without a file name, is a 400. `filename*` (RFC 5987/8187) wins over
 * `filename` when both are given. The name is returned as sent: never use it in storage keys.
 */
export function uploadFilenameOrThrow(
  contentType: string | undefined,
  disposition: string | undefined,
): string {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/octet-stream') {
    throw new UnsupportedContent(
      `send the file as application/octet-stream, not ${mediaType || 'no content type'}`,
    );
  }
  const filename = disposition === undefined ? undefined : dispositionFilename(disposition);
  if (filename === undefined || filename.trim() === '') {
    throw new InvalidInput('the file name is required: Content-Disposition: attachment; filename=<name>');
  }
  return filename;
}

/** `filename*` or `filename` of an `attachment` disposition, or undefined when there is none. */
export function dispositionFilename(header: string): string | undefined {
  const match = /^\s*attachment\s*(;.*)?$/is.exec(header);
  if (match === null || header.length > 2000) return undefined;
  const params = new Map<string, string>();
  const param = /;\s*([!#$%&'*+.^_`|~0-9a-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s"]*)\s*/giy;
  const rest = match[1] ?? '';
  let found: RegExpExecArray | null;
  let consumed = 0;
  while ((found = param.exec(rest)) !== null) {
    const raw = found[2];
    params.set(found[1].toLowerCase(), raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw);
    consumed = param.lastIndex;
  }
  if (rest.slice(consumed).trim() !== '') return undefined;
  const extended = params.get('filename*');
  if (extended !== undefined) {
    const decoded = decodeExtValue(extended);
    if (decoded !== undefined) return decoded;
  }
  return params.get('filename');
}

/** RFC 8187 `charset'lang'pct-encoded`, UTF-8 (or ISO-8859-1) only. */
function decodeExtValue(value: string): string | undefined {
  const match = /^(utf-8|iso-8859-1)'[^']*'(.*)$/i.exec(value);
  if (match === null) return undefined;
  try {
    if (match[1].toLowerCase() === 'utf-8') return decodeURIComponent(match[2]);
    return match[2].replace(/%([0-9a-f]{2})/gi, (_all, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  } catch {
    return undefined;
  }
}

/** 413: a file past DAM_MAX_UPLOAD_BYTES (a content PUT, the chunks of a temp file, a tus upload). */
export class UploadTooLarge extends TooLarge {
  constructor(max: number) {
    super(`an uploaded file may hold at most ${max} bytes`);
  }
}

/** The Content-Length the client announced, when it announced a valid one. */
export function declaredLength(request: IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined || !/^\d{1,15}$/.test(header)) return undefined;
  return Number(header);
}

export interface SizeLimitedStream {
  stream: Readable;
  /** True once the source passed the limit (the stream then failed). */
  exceeded(): boolean;
}

/**
 * Passes `source` through, failing once more than `maxBytes` went by. The rest of the source is then
 * read and discarded, so an HTTP client can still read the refusal. A source that closes before its
 * end (a client that gave up) fails the stream too, so whatever consumes it never waits forever.
 */
export function sizeLimited(source: Readable, maxBytes: number, tooLarge: () => Error): SizeLimitedStream {
  let seen = 0;
  let exceeded = false;
  let ended = false;
  const limiter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      StreamGarbage.streamed(chunk.length);
      if (seen <= maxBytes) return callback(null, chunk);
      exceeded = true;
      source.unpipe(limiter);
      source.resume();
      callback(tooLarge());
    },
  });
  // The limit may be passed before the consumer attaches (it often awaits a file open first): keep the
  // error on the stream (`errored`, which pipeline and finished report) instead of crashing the process.
  limiter.on('error', () => undefined);
  source.once('end', () => (ended = true));
  source.once('error', (error) => limiter.destroy(error));
  source.once('close', () => {
    if (!ended && !exceeded) limiter.destroy(new Error('the upload ended before its last byte'));
  });
  source.pipe(limiter);
  return { stream: limiter, exceeded: () => exceeded };
}
