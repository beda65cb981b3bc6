import { Injectable, NestMiddleware } from '@nestjs/common';
import * as express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '@dam/core';

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
 * JSON, form and XML bodies, bounded by DAM_MAX_JSON_BODY_BYTES. Runs as Nest middleware (not express's)
 * so that parse errors and 413s go through the one error filter. Binary bodies are never parsed here:
 * upload routes stream `request` themselves.
 */
@Injectable()
export class BodyParserMiddleware implements NestMiddleware {
  private readonly parsers: RequestHandler[];

  constructor(config: AppConfig) {
    const limit = config.maxJsonBodyBytes;
    this.parsers = [
      express.json({ limit, type: ['application/json', 'application/*+json'] }),
      express.urlencoded({ limit, extended: false, type: 'application/x-www-form-urlencoded' }),
      express.text({ limit, type: ['application/xml', 'text/xml', 'application/*+xml'] }),
    ];
  }

  async use(request: Request, response: Response, next: NextFunction): Promise<void> {
    if (!hasBody(request)) {
      // What each parser does for a request without a body (most GETs), without three round trips.
      if (!('body' in request)) (request as { body?: unknown }).body = undefined;
      next();
      return;
    }
    for (const parser of this.parsers) {
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

/** type-is's hasBody, as body-parser asks it: a Transfer-Encoding, or a Content-Length that is a number. */
function hasBody(request: Request): boolean {
  const headers = request.headers;
  return headers['transfer-encoding'] !== undefined || !isNaN(headers['content-length'] as unknown as number);
}
