import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { RequestContext } from '../context/request-context';
import { parseAcceptLanguage } from './accept-language';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
const HOST = /^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** Gives every request an id, an origin for URL building and a log line when it finishes. */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  private readonly logger = new Logger('HTTP');

  constructor(private readonly config: AppConfig) {}

  use(request: Request, response: Response, next: NextFunction): void {
    const offered = request.header('x-request-id');
    const requestId = offered !== undefined && REQUEST_ID.test(offered) ? offered : randomUUID();
    response.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    if (this.config.logRequests) {
      response.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // The path only: query strings can carry URL signatures.
        this.logger.log(
          `${request.method} ${request.originalUrl.split('?')[0]} ${response.statusCode} ${ms.toFixed(1)}ms id=${requestId}`,
        );
      });
    }
    const contentLanguage = request.header('content-language')?.trim().toLowerCase();
    RequestContext.run(
      {
        requestId,
        origin: this.originOf(request),
        acceptLanguages: parseAcceptLanguage(request.header('accept-language')),
        contentLanguage: contentLanguage === '' ? undefined : contentLanguage,
      },
      next,
    );
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
