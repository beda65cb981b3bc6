import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import type { RequestHandler } from 'express';
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
  'Tus-Resumable',
  'Tus-Version',
  'Tus-Max-Size',
  'Tus-Extension',
];

/** DAM_CORS_ORIGINS (`*` or origins): bearer tokens, not cookies, so no credentials mode. */
export function corsOptions(origins: string[]): CorsOptions {
  return {
    origin: origins[0] === '*' ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  };
}

/**
 * helmet's defaults, but: no `upgrade-insecure-requests` (Swagger UI at /docs must load over the plain
 * HTTP of a development setup or behind a TLS-terminating proxy), and `Cross-Origin-Resource-Policy:
 * cross-origin`, since pages of other sites embed a DAM's images (signed URLs and tokens guard them, not
 * the origin). Stored files get a stricter policy of their own (files.service.ts).
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  }) as RequestHandler;
}
