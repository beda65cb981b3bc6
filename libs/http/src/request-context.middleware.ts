import { Injectable, NestMiddleware, Optional } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig, RequestContext, RequestContextData } from '@dam/core';
import { measureTraffic, Metrics, requestIdOf } from '@dam/observability';
import { parseAcceptLanguage } from './accept-language';

const HOST = /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/**
 * Gives every request its id (`X-Request-Id`), an origin for URL building and its language, starts counting
 * its bytes, and has the metrics observe it. The log line is pino-http's (observability/logging.ts).
 */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  constructor(
    private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const requestId = requestIdOf(request, response);
    // Before any body parser reads the request.
    measureTraffic(request, response);
    this.metrics?.observe(request, response);
    const contentLanguage = request.header('content-language')?.trim().toLowerCase();
    const context: RequestContextData = {
      requestId,
      origin: this.originOf(request),
      acceptLanguages: parseAcceptLanguage(request.header('accept-language')),
      contentLanguage: contentLanguage === '' ? undefined : contentLanguage,
    };
    RequestContext.attach(request, context);
    RequestContext.run(context, next);
  }

  /** Headers are untrusted: a Host that is not a plain host[:port] falls back to localhost. */
  private originOf(request: Request): string {
    const forwardedHost = this.config.trustProxy ? firstValue(request.header('x-forwarded-host')) : undefined;
    const forwardedProto = this.config.trustProxy
      ? firstValue(request.header('x-forwarded-proto'))
      : undefined;
    const host = forwardedHost ?? request.header('host');
    const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : request.protocol;
    const safeHost = host !== undefined && isUsableHost(host) ? host : `localhost:${this.config.port}`;
    return `${proto === 'https' ? 'https' : 'http'}://${safeHost}`;
  }
}

/** Hosts already judged (a handful in practice); bounded, since the header is the client's. */
const judgedHosts = new Map<string, boolean>();
const JUDGED_HOSTS = 256;

/** A plain host[:port] that also makes a valid URL (the pattern alone lets ports above 65535 through). */
function isUsableHost(host: string): boolean {
  let usable = judgedHosts.get(host);
  if (usable === undefined) {
    usable = HOST.test(host) && URL.canParse(`http://${host}`);
    if (judgedHosts.size >= JUDGED_HOSTS) judgedHosts.clear();
    judgedHosts.set(host, usable);
  }
  return usable;
}

function firstValue(header: string | undefined): string | undefined {
  const value = header?.split(',')[0]?.trim();
  return value === '' ? undefined : value;
}
