import { Injectable, NestMiddleware } from '@nestjs/common';
import * as express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '@dam/core';
import { TooManyRequests } from '@dam/errors';
import { BodyLimits, checkJsonShape, checkXmlShape } from './body-limits';
import { BodyRefusals } from './body-refusals';
import { isStreamedJson, readJsonBody, tooLarge } from './json-body';

/**
 * A request body none of the parsers reads (`text/csv`, a body without a content type, ...). A handler that
 * takes a `@Body()` answers 415 for it (XmlNegotiationGuard); upload routes, which stream the request
 * themselves, never look at it.
 */
export class UnsupportedBody {
  constructor(readonly mediaType: string | undefined) {}
}

/** The media types the parsers below read. */
export const PARSED_MEDIA_TYPES = 'application/json, application/xml or application/x-www-form-urlencoded';

/** `/oauth/` bodies are a few form fields: their byte limit (below DAM_MAX_JSON_BODY_BYTES when that is lower). */
export const TOKEN_BODY_MAX_BYTES = 64 * 1024;

const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPES = ['application/x-www-form-urlencoded'];
const XML_TYPES = ['application/xml', 'text/xml', 'application/*+xml'];
/** The media types one of the parsers reads; any other body (an upload's bytes) is left to its route. */
const PARSED_TYPES = [...JSON_TYPES, ...FORM_TYPES, ...XML_TYPES];

/** What one route class's bodies may be: bytes (DAM_MAX_JSON_BODY_BYTES) and shape (DAM_BODY_MAX_*). */
interface BodyRules {
  bytes: number;
  limits: BodyLimits;
  parsers: RequestHandler[];
}

/**
 * JSON, form and XML bodies, bounded by DAM_MAX_JSON_BODY_BYTES and in their shape by DAM_BODY_MAX_*
 * (`/oauth/` bodies by DAM_TOKEN_BODY_MAX_KEYS and TOKEN_BODY_MAX_BYTES), so that a body past a limit
 * answers 413 in time linear in what was read and never reaches the DTO pipes. JSON in UTF-8 or UTF-16
 * is measured chunk by chunk as it arrives (json-body.ts): refused at its first excess, its remaining
 * bytes dropped unread by any parser; forms, XML and JSON in other charsets are measured in one pass
 * over the whole text before they are parsed (body-limits.ts). A declared `Content-Length` past the byte
 * limit is refused from the header alone, for every media type a parser reads (an upload's bytes are its
 * route's to measure). A refused body's answer closes the
 * connection (`Connection: close`): its rest is never read, only what arrives while the answer goes out.
 * Refusals are counted per address and token (BodyRefusals, DAM_BODY_REFUSALS_PER_MINUTE): past the
 * budget a body is answered 429, a second late, before any byte of it is read. Mounted by createApp as
 * express middleware (mountBodyParsers), whose parse errors and 413s go through the one error filter.
 * Binary bodies are never parsed here: upload routes stream `request` themselves.
 */
@Injectable()
export class BodyParserMiddleware implements NestMiddleware {
  private readonly rules: BodyRules;
  private readonly tokenRules: BodyRules;
  private readonly refusals: BodyRefusals;

  constructor(config: AppConfig) {
    this.refusals = new BodyRefusals(config.bodyRefusalsPerMinute);
    const bytes = config.maxJsonBodyBytes;
    const tokenBytes = Math.min(bytes, TOKEN_BODY_MAX_BYTES);
    this.rules = { bytes, limits: config.bodyLimits, parsers: parsersFor(bytes, config.bodyLimits) };
    this.tokenRules = {
      bytes: tokenBytes,
      limits: config.tokenBodyLimits,
      parsers: parsersFor(tokenBytes, config.tokenBodyLimits),
    };
  }

  /**
   * A request without a body (most GETs), done with here: what each parser does for it, without three
   * round trips; true when there is nothing more to do (`use` need not run).
   */
  passes(request: Request): boolean {
    if (hasBody(request)) return false;
    if (!('body' in request)) (request as { body?: unknown }).body = undefined;
    return true;
  }

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    if (this.passes(request)) {
      next();
      return;
    }
    const rules = request.originalUrl.startsWith('/oauth/') ? this.tokenRules : this.rules;
    try {
      await this.refusals.check(request);
      await this.parse(request, response, rules);
    } catch (error) {
      if (!request.complete) {
        // Answer, then close: the rest of the body is never read (nor left to block the connection).
        response.setHeader('Connection', 'close');
        request.resume();
      }
      if (!(error instanceof TooManyRequests)) this.refusals.record(request);
      throw error;
    }
    next();
  }

  private async parse(request: Request, response: Response, rules: BodyRules): Promise<void> {
    const identity = (request.headers['content-encoding'] ?? 'identity').toLowerCase() === 'identity';
    const declared = Number(request.headers['content-length']);
    if (identity && declared > rules.bytes && request.is(PARSED_TYPES)) throw tooLarge(rules.bytes);
    if (request.is(JSON_TYPES) && isStreamedJson(request)) {
      (request as { body?: unknown }).body = await readJsonBody(request, rules.bytes, rules.limits);
      return;
    }
    for (const parser of rules.parsers) {
      await new Promise<void>((resolve, reject) =>
        parser(request, response, (error?: unknown) => (error ? reject(error) : resolve())),
      );
    }
    if (request.body === undefined && request.headers['content-length'] !== '0') {
      const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      (request as { body?: unknown }).body = new UnsupportedBody(mediaType || undefined);
    }
  }
}

/**
 * The three parsers, each measuring its body's shape in `verify`, which body-parser calls with the raw
 * bytes before it decodes and parses them; what `verify` throws reaches the error filter as it is.
 */
function parsersFor(limit: number, limits: BodyLimits): RequestHandler[] {
  const measured =
    (check: (text: string, limits: BodyLimits) => void) =>
    (_request: unknown, _response: unknown, body: Buffer, encoding: string) =>
      check(decode(body, encoding), limits);
  return [
    express.json({
      limit,
      type: JSON_TYPES,
      verify: measured(checkJsonShape),
    }),
    express.urlencoded({
      limit,
      extended: false,
      parameterLimit: limits.objectKeys,
      type: FORM_TYPES,
    }),
    express.text({
      limit,
      type: XML_TYPES,
      verify: measured(checkXmlShape),
    }),
  ];
}

/** The body's text in its charset (body-parser has checked the charset exists before calling verify). */
function decode(body: Buffer, encoding: string): string {
  if (/^utf-?8$/i.test(encoding)) return body.toString('utf8');
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    // A charset iconv-lite knows and TextDecoder does not: ASCII structure reads the same in latin1.
    return body.toString('latin1');
  }
}

/** type-is's hasBody, as body-parser asks it: a Transfer-Encoding, or a Content-Length that is a number. */
function hasBody(request: Request): boolean {
  const headers = request.headers;
  return headers['transfer-encoding'] !== undefined || !isNaN(headers['content-length'] as unknown as number);
}
