import { CallHandler, ExecutionContext, Injectable, NestInterceptor, StreamableFile } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { NotAcceptable } from '../domain-errors';
import { negotiate } from './negotiation';
import { XML_BINDING, XmlBinding } from './xml-mapping';
import { toXml } from './xml-serializer';

/**
 * The one global interceptor choosing between the JSON and XML representation of a JSON body
 * (`negotiation.ts`). A handler that declares its body (`@XmlRoot`, `@XmlList`, `@XmlUrls`) is refused
 * with 406 before it runs when neither is acceptable; any other handler that returns an object or array
 * is negotiated after it ran. Bodies that are not JSON (files, redirects, 204, text, `@Res()` handlers)
 * are untouched, and so are errors (text/plain, error.filter.ts). Negotiated answers carry `Vary: Accept`.
 */
@Injectable()
export class XmlInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const binding = this.reflector.getAllAndOverride<XmlBinding | undefined>(XML_BINDING, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (binding?.kind === 'json-only') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const choice = negotiate(request.headers.accept, this.config.xmlByDefault);
    if (binding !== undefined) {
      response.vary('Accept');
      if (choice === 'none') throw notAcceptable();
    }
    return next.handle().pipe(
      map((body: unknown) => {
        if (!isJsonBody(body) || response.headersSent) return body;
        response.vary('Accept');
        if (choice === 'none') throw notAcceptable();
        if (choice === 'json') return body;
        response.type('application/xml; charset=utf-8');
        return toXml(body, binding);
      }),
    );
  }
}

function notAcceptable(): NotAcceptable {
  return new NotAcceptable('this resource is available as application/json or application/xml');
}

function isJsonBody(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof StreamableFile) &&
    !Buffer.isBuffer(body) &&
    !(body instanceof Uint8Array) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  );
}
