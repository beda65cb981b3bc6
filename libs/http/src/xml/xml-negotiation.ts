import { CanActivate, ExecutionContext, Injectable, StreamableFile } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { AppConfig } from '@dam/core';
import { PARSED_MEDIA_TYPES, UnsupportedBody } from '../body-parser.middleware';
import { NotAcceptable, UnsupportedContent } from '@dam/errors';
import { ETAGGED, reusedJsonBytes, tagBeforeSending, tagWhenSent } from '../etag';
import { memoByHeader } from '../header-memo';
import { negotiate, Representation } from './negotiation';
import { XML_BINDING, XmlBinding } from './xml-mapping';
import { toXml } from './xml-serializer';

/** What the guard decided for a request, read when its body is written. */
interface Negotiated {
  readonly binding: XmlBinding | undefined;
  readonly choice: Representation | 'none';
  /** `@ETagged()`: a GET answer carries an ETag of the bytes sent. */
  readonly etag: boolean;
}

/** What a handler declares, read once per route. */
interface HandlerTraits {
  readonly binding: XmlBinding | undefined;
  readonly etag: boolean;
  /** It takes `@Body()`. */
  readonly readsBody: boolean;
}

const NEGOTIATED = Symbol('dam:negotiated');
/** The Content-Type express's res.json sets (what `res.set('Content-Type', 'application/json')` makes). */
const JSON_UTF8 = 'application/json; charset=utf-8';

type NegotiatedRequest = Request & { [NEGOTIATED]?: Negotiated };

/**
 * JSON or XML for a JSON body (`negotiation.ts`), in two steps that cost no Observable per request:
 *
 * 1. This guard, registered right after the authentication guard (apps/api `AppModule`, so that 401
 *    comes before 406 and 415), reads the handler's binding (`@XmlRoot`, `@XmlList`, `@XmlUrls`,
 *    `@JsonOnly`) and the `Accept` header. A handler that declares its body is refused with 406 before it
 *    runs when neither representation is acceptable. The request side too: a handler that takes a
 *    `@Body()` refuses one that no parser read (body-parser.middleware.ts) with 415.
 * 2. `NegotiatingExpressAdapter.reply` writes an object or array body as the guard chose: JSON, XML, or
 *    406 for an undeclared handler whose JSON body nobody accepts; with `@ETagged()`, tagged (etag.ts).
 *
 * Bodies that are not JSON (files, redirects, 204, text, `@Res()` handlers) are untouched, and so are
 * errors (text/plain, error.filter.ts). Negotiated answers carry `Vary: Accept`.
 */
@Injectable()
export class XmlNegotiationGuard implements CanActivate {
  /** Handler -> what it declares: the metadata never changes, so it is read once per route. */
  private readonly traits = new WeakMap<object, HandlerTraits>();
  /** The representation each of the first `Accept` texts seen asks for (bounded: memoByHeader). */
  private readonly negotiated = memoByHeader(64, (accept) => negotiate(accept, this.config.xmlByDefault));

  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const { binding, etag, readsBody } = this.traitsOf(context);
    const http = context.switchToHttp();
    const request = http.getRequest<NegotiatedRequest>();
    if (readsBody && request.body instanceof UnsupportedBody) {
      throw new UnsupportedContent(
        `send the request body as ${PARSED_MEDIA_TYPES}, not ${request.body.mediaType ?? 'without a content type'}`,
      );
    }
    if (binding?.kind === 'json-only') return true;
    const choice = this.negotiated(request.headers.accept);
    if (binding !== undefined) {
      varyOnAccept(http.getResponse<Response>());
      if (choice === 'none') throw notAcceptable();
    }
    request[NEGOTIATED] = { binding, choice, etag };
    return true;
  }

  private traitsOf(context: ExecutionContext): HandlerTraits {
    const handler = context.getHandler();
    let traits = this.traits.get(handler);
    if (traits === undefined) {
      const targets = [handler, context.getClass()];
      const parameters = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ??
        {}) as Record<string, unknown>;
      traits = {
        binding: this.reflector.getAllAndOverride<XmlBinding | undefined>(XML_BINDING, targets),
        etag: this.reflector.getAllAndOverride<boolean | undefined>(ETAGGED, targets) === true,
        readsBody: Object.keys(parameters).some((key) => key.startsWith(`${RouteParamtypes.BODY}:`)),
      };
      this.traits.set(handler, traits);
    }
    return traits;
  }
}

/** Nest's Express adapter, writing JSON bodies as `XmlNegotiationGuard` decided. */
export class NegotiatingExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const negotiated = (response.req as NegotiatedRequest | undefined)?.[NEGOTIATED];
    if (negotiated === undefined || !isJsonBody(body) || response.headersSent) {
      return super.reply(response, body, statusCode);
    }
    varyOnAccept(response);
    if (negotiated.choice === 'none') throw notAcceptable();
    if (negotiated.choice === 'json') {
      const bytes = response.getHeader('Content-Type') === undefined ? reusedJsonBytes(body) : undefined;
      if (bytes === undefined) {
        if (negotiated.etag) tagWhenSent(response, body);
        return super.reply(response, body, statusCode);
      }
      // What res.json does with the text it would have made, its bytes made once: the same headers.
      if (statusCode !== undefined) response.status(statusCode);
      response.setHeader('Content-Type', JSON_UTF8);
      if (negotiated.etag) tagBeforeSending(response, body, bytes);
      return response.send(bytes);
    }
    if (negotiated.etag) tagWhenSent(response, body);
    response.type('application/xml; charset=utf-8');
    return super.reply(response, toXml(body, negotiated.binding), statusCode);
  }
}

/**
 * `Vary: Accept`, set outright when no Vary is there yet, left as it is when it is that already (the
 * guard set it; express's res.vary parses and merges).
 */
function varyOnAccept(response: Response): void {
  const vary = response.getHeader('Vary');
  if (vary === undefined) response.setHeader('Vary', 'Accept');
  else if (vary !== 'Accept') response.vary('Accept');
}

function notAcceptable(): NotAcceptable {
  return new NotAcceptable('this resource is available as application/json or application/xml');
}

function isJsonBody(body: unknown): body is object {
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof StreamableFile) &&
    !Buffer.isBuffer(body) &&
    !(body instanceof Uint8Array) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  );
}
