import { Injectable, NestMiddleware } from '@nestjs/common';
import * as express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '@dam/core';
import { BodyLimits, checkJsonShape, checkXmlShape } from './body-limits';

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

/**
 * JSON, form and XML bodies, bounded by DAM_MAX_JSON_BODY_BYTES and in their shape by DAM_BODY_MAX_*
 * (`/oauth/` bodies by DAM_TOKEN_BODY_MAX_KEYS): the raw text is measured in one pass before it is
 * parsed (body-limits.ts), so a body past a limit answers 413 in time linear in its size and never
 * reaches the DTO pipes. Runs as Nest middleware (not express's) so that parse errors and 413s go
 * through the one error filter. Binary bodies are never parsed here: upload routes stream `request`
 * themselves.
 */
@Injectable()
export class BodyParserMiddleware implements NestMiddleware {
  private readonly parsers: RequestHandler[];
  private readonly tokenParsers: RequestHandler[];

  constructor(config: AppConfig) {
    this.parsers = parsersFor(config.maxJsonBodyBytes, config.bodyLimits);
    this.tokenParsers = parsersFor(config.maxJsonBodyBytes, config.tokenBodyLimits);
  }

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    if (!hasBody(request)) {
      // What each parser does for a request without a body (most GETs), without three round trips.
      if (!('body' in request)) (request as { body?: unknown }).body = undefined;
      next();
      return;
    }
    const parsers = request.originalUrl.startsWith('/oauth/') ? this.tokenParsers : this.parsers;
    for (const parser of parsers) {
      await new Promise<void>((resolve, reject) =>
        parser(request, response, (error?: unknown) => (error ? reject(error) : resolve())),
      );
    }
    if (request.body === undefined && request.headers['content-length'] !== '0') {
      const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      (request as { body?: unknown }).body = new UnsupportedBody(mediaType || undefined);
    }
    next();
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
      type: ['application/json', 'application/*+json'],
      verify: measured(checkJsonShape),
    }),
    express.urlencoded({
      limit,
      extended: false,
      parameterLimit: limits.objectKeys,
      type: 'application/x-www-form-urlencoded',
    }),
    express.text({
      limit,
      type: ['application/xml', 'text/xml', 'application/*+xml'],
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
