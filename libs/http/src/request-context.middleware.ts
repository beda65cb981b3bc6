import { Injectable, NestMiddleware, Optional } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig, RequestContext, RequestContextData } from '@dam/core';
import { measureTraffic, Metrics, requestIdOf } from '@dam/observability';
import { parseAcceptLanguage } from './accept-language';
import { HeapRelease } from './heap-release';
import { memoByHeader } from './header-memo';
import { configuredOrigin, recordedOriginOf } from './trusted-origin';

/** The parsed languages of the `Accept-Language` texts seen first (frozen: every request shares them). */
const acceptedLanguages = memoByHeader(64, (text) => Object.freeze(parseAcceptLanguage(text)) as string[]);

/**
 * Gives every request its id (`X-Request-Id`), its origin for URL building and its language, starts counting
 * its bytes, and has the metrics observe it. The log line is pino-http's (observability/logging.ts).
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  constructor(
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  use(request: Request, response: Response, next: NextFunction): void {
    HeapRelease.requests++;
    const requestId = requestIdOf(request, response);
    // Before any body parser reads the request.
    measureTraffic(request, response);
    this.metrics?.observe(request, response);
    const contentLanguage = request.header('content-language')?.trim().toLowerCase();
    const context: RequestContextData = {
      requestId,
      // TrustedOrigin's middleware judged the host first (and refused a foreign one).
      origin: recordedOriginOf(request) ?? configuredOrigin(this.config),
      acceptLanguages: acceptedLanguages(request.headers['accept-language']),
      contentLanguage: contentLanguage === '' ? undefined : contentLanguage,
    };
    RequestContext.attach(request, context);
    RequestContext.run(context, next);
  }
}
