import { SetMetadata } from '@nestjs/common';
import type { Response } from 'express';
import { hash as oneShotHash } from 'node:crypto';
import { PreconditionFailed } from '@dam/errors';

/**
 * A representation may carry the version of what it shows under this key (not enumerable, so neither
 * JSON nor XML shows it): its ETag then starts with it (`"7-<hash>"`), which `If-Match` compares.
 */
const VERSION = Symbol('representation version');

/** Marks `representation` as showing `version` of its resource (see `ifMatchOrThrow`). */
export function withVersion<T extends object>(representation: T, version: number): T {
  Object.defineProperty(representation, VERSION, { value: version, enumerable: false });
  return representation;
}

export const ETAGGED = 'dam:etagged';

/**
 * `ETag` on GET (and HEAD) answers of the handler: a strong validator computed from the serialised body
 * (JSON or XML, whichever was negotiated) once, as Express sends it, prefixed with the resource's version
 * when the representation carries one (`withVersion`). Express then answers a matching `If-None-Match`
 * with 304 and no body. Applied by `NegotiatingExpressAdapter` (no interceptor: one costs an RxJS
 * pipeline per request).
 */
export function ETagged(): MethodDecorator {
  return SetMetadata(ETAGGED, true);
}

/** The JSON text (and its UTF-8 bytes) and ETag of a representation marked by `sentManyTimes`, each computed once. */
interface Serialized {
  json?: string;
  bytes?: Buffer;
  tag?: string;
}

const serialized = new WeakMap<object, Serialized>();

/**
 * Marks `representation` as one answer sent unchanged to many requests (an owner keeps it while what it
 * shows stands): its JSON text and ETag are computed on its first answer and reused by the next. Frozen
 * here, with its arrays, since every answer shares it.
 */
export function sentManyTimes<T extends object>(representation: T): T {
  for (const value of Object.values(representation)) {
    if (Array.isArray(value)) Object.freeze(value);
  }
  serialized.set(representation, {});
  return Object.freeze(representation);
}

/**
 * The JSON text of a representation marked by `sentManyTimes` as UTF-8 bytes (stringified and encoded
 * once), else undefined: sent as they are, Express neither copies the text into
 * a new Buffer per answer nor parses the content type again to set its charset.
 */
export function reusedJsonBytes(body: object): Buffer | undefined {
  const memo = serialized.get(body);
  if (memo === undefined) return undefined;
  return (memo.bytes ??= Buffer.from((memo.json ??= JSON.stringify(body)), 'utf8'));
}

/** Tags the next body `response` sends (res.json and a negotiated XML string both end in res.send). */
export function tagWhenSent(response: Response, representation: object): void {
  if (!isRead(response)) return;
  const send = response.send;
  response.send = function (this: Response, body?: unknown) {
    response.send = send;
    if (typeof body === 'string' || Buffer.isBuffer(body)) tagAnswer(this, representation, body);
    return send.call(this, body);
  } as Response['send'];
}

/**
 * Tags `response` now, for `body` it is about to send (the reused JSON bytes of `representation`): what
 * `tagWhenSent` does when the body is known already, without wrapping `send` in a closure per answer.
 */
export function tagBeforeSending(response: Response, representation: object, body: string | Buffer): void {
  if (isRead(response)) tagAnswer(response, representation, body);
}

function isRead(response: Response): boolean {
  const method = (response.req as { method?: string } | undefined)?.method;
  return method === 'GET' || method === 'HEAD';
}

/** The ETag of a 200 answer of `representation` whose body is `body`, and 304 when If-None-Match names it. */
function tagAnswer(response: Response, representation: object, body: string | Buffer): void {
  if (response.statusCode !== 200) return;
  const version = (representation as { [VERSION]?: number })[VERSION];
  const memo = serialized.get(representation);
  // The JSON text of a reused representation has one tag; an XML answer of it is hashed each time.
  const tag =
    memo !== undefined && (body === memo.bytes || body === memo.json)
      ? (memo.tag ??= entityTag(body, version))
      : entityTag(body, version);
  response.setHeader('ETag', tag);
  // A matching If-None-Match is answered 304 whatever the request's Cache-Control says: Express's
  // freshness check refuses on `no-cache`, which fetch adds to every conditional request, but that
  // directive tells caches to revalidate (RFC 9111 §5.2.1.4), and this answer is the revalidation.
  if (etagMatches(response.req.get('if-none-match'), tag)) response.status(304);
}

function entityTag(body: string | Buffer, version: number | undefined): string {
  // One-shot hash (Node 21.7+): no Hash object per answer.
  const hash = hash1(body);
  return version === undefined ? `"${hash}"` : `"${version}-${hash}"`;
}

/**
 * Refuses a change (PUT, DELETE) whose `If-Match` names none of the current version's tags: 412. Without
 * the header, or with `*`, the change goes ahead. A tag matches when it was served for this version
 * (any representation of it: JSON or XML, any language); weak tags never match (RFC 9110 13.1.1).
 */
export function ifMatchOrThrow(header: string | undefined, version: number, what: string): void {
  if (header === undefined || header.trim() === '') return;
  const tags = header.split(',').map((tag) => tag.trim());
  if (tags.includes('*')) return;
  const current = tags.some((tag) => new RegExp(`^"${version}-[A-Za-z0-9_-]+"$`).test(tag));
  if (!current) {
    throw new PreconditionFailed(`${what} has changed since the version in If-Match: read it again`);
  }
}

/** True when an `If-None-Match` (or `If-Range`) list names `etag` (weak comparison, `*` matches all). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

function hash1(body: string | Buffer): string {
  return oneShotHash('sha1', body, 'base64url');
}
