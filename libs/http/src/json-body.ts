import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { BodyLimits, JsonShapeMeter } from './body-limits';

/**
 * An error of the request body, typed as express's body parsers type theirs (the error filter answers
 * each type with its plain-text message: 413 too large, 400 unparsable, 415 encoding).
 */
function bodyError(type: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { type, expose: true }, extra);
}

export function tooLarge(limit: number): Error {
  return bodyError('entity.too.large', 'request entity too large', { status: 413, limit });
}

/** Charsets whose bytes are read as they come (UTF-8), or decoded chunk by chunk (UTF-16) first. */
const STREAMED_CHARSETS = new Set(['utf-8', 'utf8', 'utf-16le', 'utf-16be', 'utf-16']);

/** The body's charset (lower case; utf-8 when none is named). */
export function charsetOf(request: IncomingMessage): string {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(request.headers['content-type'] ?? '');
  return (match?.[1] ?? match?.[2] ?? 'utf-8').toLowerCase();
}

/** Whether readJsonBody reads this request; others go through express.json (rarer charsets). */
export function isStreamedJson(request: IncomingMessage): boolean {
  return STREAMED_CHARSETS.has(charsetOf(request));
}

/**
 * Reads a JSON request body of at most `limit` bytes (decompressed) whose shape stays within `limits`,
 * as express.json does (empty is `{}`, the text must start with `{` or `[`, a BOM is dropped; gzip,
 * deflate, br and zstd are inflated), but measuring each chunk as it arrives: a declared length over the
 * limit is refused before any byte is read, a body past a byte or shape limit at its first excess. The
 * refusal is answered at once; what the client sends while the answer goes out is read off and dropped
 * (never kept, decoded or parsed), and the connection is closed once answered (BodyParserMiddleware sets
 * `Connection: close`), so the rest of a refused body is never read.
 */
export function readJsonBody(request: IncomingMessage, limit: number, limits: BodyLimits): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const contentEncoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (contentEncoding === 'identity' && Number(request.headers['content-length']) > limit) {
      request.resume();
      reject(tooLarge(limit));
      return;
    }
    let source: Readable = request;
    let inflating: Transform | undefined;
    if (contentEncoding !== 'identity') {
      const inflate = decompressor(contentEncoding);
      if (inflate === undefined) {
        request.resume();
        reject(bodyError('encoding.unsupported', `unsupported content encoding "${contentEncoding}"`));
        return;
      }
      inflating = source = request.pipe(inflate);
    }
    const charset = charsetOf(request);
    const decoder = charset.startsWith('utf-16')
      ? new TextDecoder(charset === 'utf-16' ? 'utf-16le' : charset)
      : undefined;
    const meter = new JsonShapeMeter(limits);
    const chunks: Buffer[] = [];
    const texts: string[] = [];
    let received = 0;
    let settled = false;

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      try {
        if (received > limit) throw tooLarge(limit);
        if (decoder === undefined) {
          meter.write(chunk);
          chunks.push(chunk);
        } else {
          const text = decoder.decode(chunk, { stream: true });
          meter.write(Buffer.from(text, 'utf8'));
          texts.push(text);
        }
      } catch (error) {
        finish(error);
      }
    };
    const onEnd = () => {
      try {
        const text =
          decoder === undefined
            ? Buffer.concat(chunks, received).toString('utf8')
            : texts.join('') + decoder.decode();
        finish(undefined, parseJson(text));
      } catch (error) {
        finish(error);
      }
    };
    const onError = (error: unknown) =>
      finish(
        source === request
          ? bodyError('request.aborted', 'request aborted')
          : bodyError('entity.parse.failed', `the body could not be inflated: ${String(error)}`),
      );
    const onClose = () => {
      if (!request.complete) finish(bodyError('request.aborted', 'request aborted'));
    };

    function finish(error: unknown, body?: unknown): void {
      if (settled) return;
      settled = true;
      source.off('data', onData).off('end', onEnd).off('error', onError);
      request.off('close', onClose).off('error', onError);
      if (error === undefined) {
        resolve(body);
        return;
      }
      if (inflating !== undefined) {
        request.unpipe(inflating);
        inflating.on('error', () => undefined);
        inflating.destroy();
      }
      // Read off (and drop) what comes while the answer goes out: a client still writing its body then
      // reads the answer rather than a reset. The connection closes once answered (Connection: close).
      request.resume();
      reject(error);
    }

    source.on('data', onData).on('end', onEnd).on('error', onError);
    if (source !== request) request.on('error', onError);
    request.on('close', onClose);
  });
}

function decompressor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return 'createZstdDecompress' in zlib ? zlib.createZstdDecompress() : undefined;
    default:
      return undefined;
  }
}

const JSON_WHITESPACE = ' \t\n\r';

/** express.json's strict parse: empty is `{}`; otherwise an object or an array. */
function parseJson(text: string): unknown {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (json.length === 0) return {};
  let at = 0;
  while (JSON_WHITESPACE.includes(json[at])) at += 1;
  const first = json[at];
  if (first !== '{' && first !== '[') {
    throw bodyError('entity.parse.failed', 'the JSON body must be an object or an array', { status: 400 });
  }
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw bodyError('entity.parse.failed', String(error), { status: 400 });
  }
}
