import type {
  CorsOptions,
  CorsOptionsDelegate,
} from '@nestjs/common/interfaces/external/cors-options.interface';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * Response headers a browser client may read across origins: links and locations the API answers with,
 * paging, validators, limits, request ids, download names and resumable-upload state.
 */
export const EXPOSED_HEADERS = [
  'Location',
  'Link',
  'ETag',
  'Last-Modified',
  'Retry-After',
  'X-Total-Count',
  'X-Request-Id',
  'Content-Disposition',
  'Content-Range',
  'Accept-Ranges',
  'Allow',
  'WWW-Authenticate',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Upload-Offset',
  'Upload-Length',
  'Upload-Expires',
  'X-Duplicate-Of',
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Max-Size',
  'Tus-Extension',
];

/**
 * DAM_CORS_ORIGINS (`*` or origins): bearer tokens, not cookies, so no credentials mode. The CORS
 * middleware answers only preflights (an `OPTIONS` with `Origin` and `Access-Control-Request-Method`);
 * any other `OPTIONS` goes on to its route, such as tus discovery on `/rest/tus` (Tus-Version,
 * Tus-Extension) or the `Allow` list of the others, and gets the CORS headers of a plain request.
 */
export function corsOptions(origins: string[]): CorsOptionsDelegate<Request> {
  const options: CorsOptions = {
    origin: origins[0] === '*' ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  };
  const others: CorsOptions = { ...options, preflightContinue: true };
  return (request, callback) => callback(null, isPreflight(request) ? options : others);
}

/** A CORS preflight (Fetch standard §3.2.2): OPTIONS naming an origin and the method it asks for. */
function isPreflight(request: Request): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.origin !== undefined &&
    request.headers['access-control-request-method'] !== undefined
  );
}

/** The helmet options of securityHeaders (below). */
export const SECURITY_HEADER_OPTIONS = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  crossOriginResourcePolicy: { policy: 'cross-origin' as const },
};

/**
 * helmet's defaults, but: no `upgrade-insecure-requests` (Swagger UI at /docs must load over the plain
 * HTTP of a development setup or behind a TLS-terminating proxy), and `Cross-Origin-Resource-Policy:
 * cross-origin`, since pages of other sites embed a DAM's images (signed URLs and tokens guard them, not
 * the origin). Stored files get a stricter policy of their own (files.service.ts).
 */
export function securityHeaders(): RequestHandler {
  const headers = headersSetBy(helmet(SECURITY_HEADER_OPTIONS) as RequestHandler);
  // Two flat lists and an index: a `for (const [name, value] of ...)` here allocated an iterator result
  // and a destructuring per header, about 2 KB of a GET's 72 (bench/results/read-allocation.md).
  const names = headers.map(([name]) => name);
  const values = headers.map(([, value]) => value);
  const count = names.length;
  return (_request, response, next) => {
    for (let index = 0; index < count; index++) response.setHeader(names[index], values[index]);
    next();
  };
}

/**
 * The headers `middleware` sets, recorded once at boot. With the options above every helmet header is the
 * same for every request, and setting them from this list costs a tenth of running helmet's thirteen
 * middlewares per request: GET /rest/assets/{id} 9,300 -> 10,500 req/s (bench/results/latest.md). helmet
 * stays the source of the values. A middleware that does anything but set headers and call `next` at once
 * (a per-request CSP nonce, say) fails the boot here rather than being recorded wrong.
 */
export function headersSetBy(middleware: RequestHandler): Array<[string, string]> {
  const headers = new Map<string, string>();
  let passed = false;
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      if (typeof value !== 'string') throw new Error(`security header ${name} is not a plain string`);
      headers.set(name, value);
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  const request = new Proxy(
    {},
    {
      get(_target, property) {
        throw new Error(
          `security headers that depend on the request (${String(property)}) cannot be recorded`,
        );
      },
    },
  );
  middleware(request as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    passed = true;
  });
  if (!passed) throw new Error('the security headers middleware did not pass the request on at once');
  return [...headers];
}

/**
 * DAM_ROLE=worker: the process makes renditions and answers only its health and its metrics; any other
 * request is 404, so a load balancer that sends one there by mistake gets no half-served API.
 */
export function workerOnlyRoutes(): RequestHandler {
  return (request, response, next) => {
    if (/^\/(health|metrics)(\/|$|\?)/.test(request.url)) return next();
    response
      .status(404)
      .type('text/plain')
      .send('This instance is a rendition worker (DAM_ROLE=worker): it serves no API.');
  };
}
