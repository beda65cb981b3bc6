import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { NotPermitted, UnknownResource } from '@dam/errors';
import { etagMatches } from '@dam/http';
import { parseRange } from './byte-range';
import { contentDisposition } from './content-disposition';
import { FsObjectStorage } from './fs.storage';
import { assertValidKey } from './object-key';
import { ByteRange, ObjectNotFound, ObjectStat, ObjectStorage } from './object-storage.port';
import { UrlSigner } from './url-signer';

export interface FileRequest {
  /** Path and query as received (`req.originalUrl`): what the signature covers. */
  url: string;
  method: string;
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
}

export interface FileReply {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** The bytes to send; undefined for 304, 416 and HEAD. */
  body?: Readable;
  /** A short text/plain body (416). */
  text?: string;
}

const DEFAULT_TYPE = 'application/octet-stream';
const TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";
const MEDIA_TYPE = new RegExp(
  `^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"[^"\\\\\\x00-\\x1f\\x7f]*"))*$`,
);

/**
 * Serves objects of the fs store through URLs signed by FsObjectStorage.signedGetUrl:
 * `/files/{key}?filename=&contentType=&timestamp=&key=`. A bad signature is a 403 "the signed URL is
 * invalid", an authentic but expired one a 403 "the signed URL has expired" (so clients know to ask for a
 * fresh URL). With the minio driver the store presigns its own URLs and this route does not exist (404).
 */
@Injectable()
export class FilesService {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly signer: UrlSigner,
  ) {}

  async serve(request: FileRequest): Promise<FileReply> {
    const url = new URL(request.url, 'http://service.invalid');
    if (!(this.storage instanceof FsObjectStorage))
      throw new UnknownResource(`no resource at GET ${url.pathname}`);
    const check = this.signer.verify(request.url, 'GET');
    if (check === 'invalid') throw new NotPermitted('the signed URL is invalid');
    if (check === 'expired') throw new NotPermitted('the signed URL has expired');

    const key = keyOf(url.pathname);
    const stat = key === undefined ? undefined : await this.storage.stat(key);
    if (key === undefined || stat === undefined) throw new UnknownResource('the file does not exist');

    const headers = this.headersFor(url, stat);
    if (etagMatches(request.ifNoneMatch, headers.ETag)) {
      return { status: 304, headers: pick(headers, ['ETag', 'Cache-Control', 'Last-Modified']) };
    }
    const honourRange = request.ifRange === undefined || etagMatches(request.ifRange, headers.ETag);
    const range = honourRange ? parseRange(request.range, stat.size) : undefined;
    if (range === 'unsatisfiable') {
      return {
        status: 416,
        headers: { 'Content-Range': `bytes */${stat.size}`, 'Content-Type': 'text/plain; charset=utf-8' },
        text: 'the requested range is not satisfiable',
      };
    }
    if (range !== undefined) {
      headers['Content-Range'] = `bytes ${range.start}-${range.end}/${stat.size}`;
      headers['Content-Length'] = String(range.end - range.start + 1);
    } else {
      headers['Content-Length'] = String(stat.size);
    }
    const body = request.method === 'HEAD' ? undefined : await this.open(key, range);
    return { status: range === undefined ? 200 : 206, headers, body };
  }

  private headersFor(url: URL, stat: ObjectStat): Record<string, string> {
    const requested = single(url.searchParams, 'contentType');
    const contentType = requested !== undefined && MEDIA_TYPE.test(requested) ? requested : DEFAULT_TYPE;
    const remaining = Number(url.searchParams.get('timestamp')) - Math.floor(Date.now() / 1000);
    return {
      'Content-Type': contentType,
      // Inline only for safe image types; anything else (HTML, SVG, ...) downloads, never renders here.
      'Content-Disposition': contentDisposition(single(url.searchParams, 'filename'), contentType),
      ETag: `"${stat.etag}"`,
      'Last-Modified': stat.lastModified.toUTCString(),
      'Accept-Ranges': 'bytes',
      'Cache-Control': `private, max-age=${Math.max(0, remaining)}`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    };
  }

  private async open(key: string, range: ByteRange | undefined): Promise<Readable> {
    try {
      return await this.storage.get(key, range);
    } catch (error) {
      if (error instanceof ObjectNotFound) throw new UnknownResource('the file does not exist');
      throw error;
    }
  }
}

/** The object key of `/files/{key}`, or undefined when the path names no valid key. */
function keyOf(pathname: string): string | undefined {
  if (!pathname.startsWith('/files/')) return undefined;
  try {
    const key = pathname.slice('/files/'.length).split('/').map(decodeURIComponent).join('/');
    assertValidKey(key);
    return key;
  } catch {
    return undefined;
  }
}

function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

function pick(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, headers[name]]));
}
